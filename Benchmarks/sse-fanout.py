#!/usr/bin/env python3
"""How long a result change takes to reach every live-ranking subscriber.
Opens SUBSCRIBERS Server-Sent-Events streams on one competition, waits until each has its first
ranking, then enters a result (PUT) and measures, for each stream, the time from sending the PUT
to receiving the new ranking. Runs ROUNDS changes.
    Benchmarks/sse-fanout.py URL TOKEN COMPETITION PARTICIPANT [SUBSCRIBERS] [ROUNDS]"""
import asyncio
import statistics
import sys
import time
from urllib.parse import urlparse

url, token, competition, participant = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
subscribers = int(sys.argv[5]) if len(sys.argv) > 5 else 1000
rounds = int(sys.argv[6]) if len(sys.argv) > 6 else 5
host, port = urlparse(url).hostname, urlparse(url).port
MARK = b"event: ranking"


class Stream:
    def __init__(self):
        self.seen = 0
        self.buffer = b""
        self.arrivals = []

    async def run(self, opened):
        reader, writer = await asyncio.open_connection(host, port)
        writer.write((f"GET /api/v1/competitions/{competition}/ranking/live HTTP/1.1\r\nHost: {host}\r\n"
                      f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode())
        await writer.drain()
        opened()
        while True:
            data = await reader.read(65536)
            if not data:
                return
            now = time.monotonic()
            self.buffer += data
            count = self.buffer.count(MARK)
            if count:
                self.arrivals.extend([now] * count)
                self.seen += count
                self.buffer = self.buffer[self.buffer.rfind(MARK) + len(MARK):]
            self.buffer = self.buffer[-len(MARK):]


async def put(value):
    reader, writer = await asyncio.open_connection(host, port)
    body = f'{{"value": {value}}}'.encode()
    writer.write((f"PUT /api/v1/competitions/{competition}/participants/{participant}/result HTTP/1.1\r\n"
                  f"Host: {host}\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                  f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body)
    await writer.drain()
    status = (await reader.readline()).decode().strip()
    await reader.read()
    writer.close()
    return status


async def main():
    streams = [Stream() for _ in range(subscribers)]
    opened = 0

    def count():
        nonlocal opened
        opened += 1

    tasks = []
    for index, stream in enumerate(streams):
        tasks.append(asyncio.create_task(stream.run(count)))
        if index % 100 == 99:
            await asyncio.sleep(0.05)
    deadline = time.monotonic() + 60
    while any(stream.seen < 1 for stream in streams):
        if time.monotonic() > deadline:
            sys.exit(f"only {sum(s.seen >= 1 for s in streams)} of {subscribers} streams got a first ranking")
        await asyncio.sleep(0.05)
    print(f"{subscribers} subscribers connected, each with its first ranking")
    worst = []
    for round in range(rounds):
        await asyncio.sleep(1.5)
        before = [stream.seen for stream in streams]
        start = time.monotonic()
        status = await put(1000 + round)
        while any(stream.seen <= seen for stream, seen in zip(streams, before)):
            if time.monotonic() - start > 10:
                got = sum(stream.seen > seen for stream, seen in zip(streams, before))
                sys.exit(f"{status}: only {got} of {subscribers} subscribers got the change within 10 s")
            await asyncio.sleep(0.001)
        latencies = sorted((stream.arrivals[seen] - start) * 1000 for stream, seen in zip(streams, before))
        worst.append(latencies[-1])
        print(f"round {round + 1}: {status}; first {latencies[0]:.1f} ms, median {statistics.median(latencies):.1f} ms, "
              f"p99 {latencies[int(len(latencies) * 0.99) - 1]:.1f} ms, last {latencies[-1]:.1f} ms")
    print(f"slowest subscriber over {rounds} rounds: {max(worst):.1f} ms")
    for task in tasks:
        task.cancel()


asyncio.run(main())
