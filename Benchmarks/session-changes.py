#!/usr/bin/env python3
"""How soon another instance forgets a session that one instance ended.

Two Campus instances on one database (SQLite: one data directory; PostgreSQL: --database URL).
Each trial logs the demo student in on the first, uses the token once on the second (so the
second keeps the session in memory), logs out on the first, and then asks the second every
millisecond until it answers 401: the time from the logout's answer to that 401.

    Benchmarks/session-changes.py [--binary .build/release/campus] [--database postgres://…] [--trials 100]
"""

import argparse
import json
import shutil
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.error
import urllib.request


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def call(port, method, path, token=None, body=None):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", method=method)
    if token:
        request.add_header("Authorization", f"Bearer {token}")
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, data, timeout=10) as answer:
            text = answer.read()
            return answer.status, json.loads(text) if text else None
    except urllib.error.HTTPError as error:
        return error.code, None


def wait_healthy(port):
    for _ in range(600):
        try:
            if call(port, "GET", "/health")[0] == 200:
                return
        except OSError:
            pass
        time.sleep(0.1)
    raise SystemExit(f"the instance on {port} did not start")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/campus")
    parser.add_argument("--database")
    parser.add_argument("--trials", type=int, default=100)
    options = parser.parse_args()
    work = tempfile.mkdtemp()
    ports = [free_port(), free_port()]
    servers = []
    try:
        for index, port in enumerate(ports):
            arguments = [options.binary, "serve", "--port", str(port), "--log-level", "warning", "--bcrypt-cost", "4"]
            # SQLite: both instances on the first one's data directory (its database file).
            arguments += ["--data-dir", f"{work}/data" if not options.database else f"{work}/data{index}"]
            if options.database:
                arguments += ["--database", options.database]
            if index == 0:
                arguments += ["--demo"]
            servers.append(subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_healthy(port)
        first, second = ports
        credentials = {"email": "student@campus.test", "password": "campus-student"}
        delays = []
        for _ in range(options.trials):
            status, login = call(first, "POST", "/api/v1/auth/login", body=credentials)
            assert status == 200, status
            token = login["token"]
            assert call(second, "GET", "/api/v1/me", token)[0] == 200
            assert call(first, "POST", "/api/v1/auth/logout", token)[0] == 204
            ended = time.perf_counter()
            while call(second, "GET", "/api/v1/me", token)[0] == 200:
                if time.perf_counter() - ended > 10:
                    raise SystemExit("the second instance still knows the session after 10 s")
                time.sleep(0.001)
            delays.append((time.perf_counter() - ended) * 1000)
        delays.sort()
        kind = "PostgreSQL" if options.database else "SQLite"
        print(
            f"{kind}, {options.trials} logouts: until the other instance answers 401 "
            f"median {statistics.median(delays):.1f} ms, p95 {delays[int(len(delays) * 0.95) - 1]:.1f} ms, "
            f"max {delays[-1]:.1f} ms"
        )
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
