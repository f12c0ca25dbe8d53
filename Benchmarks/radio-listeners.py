"""N listeners of one live stream for SECONDS: how many held on to the end and heard (almost)
everything the source sent, and how much CPU the server spent per listener meanwhile.
    python3 Benchmarks/radio-listeners.py URL PID LISTENERS SECONDS [KBITS]"""
import asyncio
import os
import sys
import time
from urllib.parse import urlparse


async def listener(host, port, path, seconds, counts, index, started):
    try:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUser-Agent: bench\r\n\r\n".encode())
        await writer.drain()
        await started.wait()
        deadline = time.monotonic() + seconds
        received = 0
        while time.monotonic() < deadline:
            try:
                chunk = await asyncio.wait_for(reader.read(65536), timeout=max(0.01, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                break
            if not chunk:
                counts[index] = (received, False)
                return
            received += len(chunk)
        counts[index] = (received, True)
        writer.close()
    except OSError:
        counts[index] = (0, False)


def cpu_ticks(pid):
    fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    return int(fields[11]) + int(fields[12])


async def main():
    url, pid, listeners, seconds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), float(sys.argv[4])
    kbits = int(sys.argv[5]) if len(sys.argv) > 5 else 128
    parts = urlparse(url)
    counts = [(0, False)] * listeners
    started = asyncio.Event()
    tasks = [asyncio.create_task(listener(parts.hostname, parts.port, parts.path, seconds, counts, i, started))
             for i in range(listeners)]
    await asyncio.sleep(3)  # every connection open, every burst sent
    hz = os.sysconf("SC_CLK_TCK")
    before, clock = cpu_ticks(pid), time.monotonic()
    started.set()
    await asyncio.gather(*tasks)
    spent = (cpu_ticks(pid) - before) / hz
    elapsed = time.monotonic() - clock
    expected = kbits * 1000 / 8 * seconds
    held = sum(1 for received, whole in counts if whole and received >= 0.9 * expected)
    cpu = 100 * spent / elapsed
    print(f"listeners {listeners}: held without a drop {held}; server CPU {cpu:.1f}% "
          f"= {10 * cpu / listeners:.4f}‰ of a core per listener; "
          f"mean received {sum(r for r, _ in counts) / listeners / 1024:.0f} KiB of {expected / 1024:.0f}")


asyncio.run(main())
