#!/usr/bin/env python3
"""Issue 36, item 3: what a visitor's browser transfers for a group's week page, read from
Chromium's resource timing (`transferSize` of the navigation and of every resource), on a first
visit (empty cache) and on a repeat visit (the page opened again from a link, as a student
does), beside what the same files weigh uncompressed (`decodedBodySize`).

    .ci-work/venv/bin/python Benchmarks/transfer.py [BINARY] [PATH]

BINARY defaults to .build/release/campus, PATH to the demo's /timetable/groups/151004. Targets
(issue 36): the first visit at most 35 KB in all (HTML + CSS + JS + icons); a repeat visit
transfers only the HTML; offline, nothing."""
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "Tests" / "e2e"))

import conftest  # noqa: E402

ENTRIES = """
const navigation = performance.getEntriesByType('navigation')[0];
const rows = [navigation, ...performance.getEntriesByType('resource')].map(e => ({
    name: e.name, transfer: e.transferSize, encoded: e.encodedBodySize, decoded: e.decodedBodySize}));
return rows;
"""


def visit(driver, url):
    driver.get(url)
    time.sleep(1.0)  # the deferred scripts and the icon
    return driver.execute_script(ENTRIES)


def table(title, rows, base):
    print(f"\n{title}")
    print(f"{'resource':48} {'transferred':>12} {'body sent':>10} {'body read':>10}")
    for row in rows:
        print(f"{row['name'].replace(base, ''):48.48} {row['transfer']:>12} {row['encoded']:>10} {row['decoded']:>10}")
    total = sum(row["transfer"] for row in rows)
    print(f"{'in all':48} {total:>12} {sum(r['encoded'] for r in rows):>10} {sum(r['decoded'] for r in rows):>10}")
    return total


def main():
    binary = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build" / "release" / "campus")
    path = sys.argv[2] if len(sys.argv) > 2 else "/timetable/groups/151004"
    conftest.BINARY = binary
    data = Path(tempfile.mkdtemp(prefix="campus-transfer-")) / "campus-data"
    server = conftest.Campus(data, demo=True).start()
    driver = conftest.chromium(data.parent / "chromium", phone=True)
    try:
        first = table("First visit (empty cache)", visit(driver, server.url + path), server.url)
        # A repeat visit: the page opened again from a link (a reload would revalidate everything).
        driver.get(server.url + "/")
        time.sleep(0.5)
        driver.execute_script(f"location.href = {server.url + path!r}")
        time.sleep(1.5)
        repeat = table("Repeat visit (from a link)", driver.execute_script(ENTRIES), server.url)
        # Offline: the installed app's service worker answers the page (as last read) and its shell.
        time.sleep(3.0)  # the worker has kept its shell
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        driver.get(server.url + "/")
        time.sleep(0.5)
        driver.execute_script(f"location.href = {server.url + path!r}")
        time.sleep(1.5)
        offline = table("Offline (network cut; the service worker answers)", driver.execute_script(ENTRIES), server.url)
        print(f"\nfirst visit {first} bytes (target ≤ 35,000); repeat visit {repeat} bytes; offline {offline} bytes")
    finally:
        driver.quit()
        server.stop()


if __name__ == "__main__":
    main()
