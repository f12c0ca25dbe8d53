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


WORKER = """
const done = arguments[arguments.length - 1];
if (!navigator.serviceWorker || !navigator.serviceWorker.controller) { done(null); return; }
const channel = new MessageChannel();
channel.port1.onmessage = (event) => done(event.data);
navigator.serviceWorker.controller.postMessage({kind: 'timing'}, [channel.port2]);
"""


def worker_entries(driver):
    """What the service worker fetched from the network since last asked (None without one)."""
    return driver.execute_async_script(WORKER)


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
        # With the service worker in control, what crosses the network is what the worker fetches.
        time.sleep(3.0)  # the worker has installed and kept its shell
        driver.get(server.url + "/")
        time.sleep(0.5)
        worker_entries(driver)
        driver.execute_script(f"location.href = {server.url + path!r}")
        time.sleep(1.5)
        table("Repeat visit (from a link): what the page reads", driver.execute_script(ENTRIES), server.url)
        repeat = table("Repeat visit: what crosses the network (the service worker's fetches)",
                       worker_entries(driver) or [], server.url)
        # Offline: the server stopped and Chromium offline; the worker answers the page (as last
        # read) and its shell, and nothing crosses the network.
        driver.execute_cdp_cmd("Network.enable", {})
        driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        server.stop()
        driver.get(server.url + "/")
        time.sleep(0.5)
        worker_entries(driver)
        driver.execute_script(f"location.href = {server.url + path!r}")
        time.sleep(1.5)
        shown = driver.execute_script("return document.body.hasAttribute('data-offline-since')")
        offline = table(f"Offline: what crosses the network (the page shown, kept: {shown})",
                        worker_entries(driver) or [], server.url)
        print(f"\nfirst visit {first} bytes (target ≤ 35,000); repeat visit {repeat} bytes; offline {offline} bytes")
    finally:
        driver.quit()
        if server.process:
            server.stop()


if __name__ == "__main__":
    main()
