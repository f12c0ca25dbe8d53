#!/usr/bin/env python3
"""Issue 35, item 31: how Campus answers while its PostgreSQL is away, and how soon after it comes
back. A private PostgreSQL (scripts/postgres) is stopped and started under a running Campus
a few times; for each outage it prints, in seconds: `/health`, `/ready`, the first
request that needs the database, the median of the next ten (once the database is known to be
down), and the time from `pg_ctl start` returning to the first answer that read the database.

    .ci-work/venv/bin/python Benchmarks/outage.py [BINARY] [ROUNDS]

BINARY defaults to .build/release/campus. The targets (issue 35): /health never waits, /ready
within a second, requests 503 at once once the database is known to be down, recovery within a
second."""
import statistics
import sys
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

import conftest  # noqa: E402
from test_outages import PrivatePostgres, timed  # noqa: E402


def unknown_token(server):
    """A request that reads the database every time and is never throttled: a token nobody has
    (401 while the database answers, 503 while it does not)."""
    return server.call("GET", "/api/v1/me", token="no-such-token-" + str(time.monotonic_ns()))


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "release" / "campus")
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    conftest.BINARY = binary
    postgres = PrivatePostgres()
    data = Path(f"/tmp/campus-outage-{int(time.time())}")
    server = conftest.Campus(data, database=postgres.url).start()
    rows = []
    try:
        for _ in range(rounds):
            assert unknown_token(server).status_code == 401
            postgres.stop()
            time.sleep(1.1)
            health = timed(lambda: requests.get(server.url + "/health", timeout=60))[1]
            ready = timed(lambda: requests.get(server.url + "/ready", timeout=60))[1]
            first = timed(lambda: unknown_token(server))[1]
            later = statistics.median(timed(lambda: unknown_token(server))[1] for _ in range(10))
            postgres.start()
            started = time.monotonic()
            while unknown_token(server).status_code != 401:
                time.sleep(0.01)
            rows.append((health, ready, first, later, time.monotonic() - started))
    finally:
        server.stop()
        postgres.remove()
    print("| round | /health | /ready | first request | next requests (median) | recovery |")
    print("|---:|---:|---:|---:|---:|---:|")
    for number, row in enumerate(rows, 1):
        print(f"| {number} | " + " | ".join(f"{value:.3f}" for value in row) + " |")


if __name__ == "__main__":
    main()
