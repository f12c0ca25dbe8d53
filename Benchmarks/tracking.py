#!/usr/bin/env python3
"""Live tracking under load (issue 41's target): N participants tracking at once, each sending one
batch of positions (one a second, as a phone's GPS gives them) every 5 s on a keep-alive
connection of its own, for SECONDS; one live-page subscriber follows the competition's tracks
(Server-Sent Events). Prints the batch POST's latency (p50, p99, max) and how far the live page
is behind: from sending a batch to its `position` event (id "user:batch") on the stream.
    Benchmarks/tracking.py URL COMPETITION TOKENS [SECONDS]
TOKENS holds "user_id token" lines (Benchmarks/make-competition.py --tracking writes it)."""
import asyncio
import datetime
import json
import math
import random
import sys
import time
from urllib.parse import urlparse

url, competition, tokens_path = sys.argv[1], int(sys.argv[2]), sys.argv[3]
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 60
host, port = urlparse(url).hostname, urlparse(url).port
EVERY = 5.0
trackers = [line.split() for line in open(tokens_path) if line.strip()]
sent_at = {}  # "user:batch" -> when its POST was sent
arrived_at = {}  # "user:batch" -> when the stream carried it
latencies = []
failures = []


async def read_response(reader):
    """Status and body of one HTTP/1.1 answer (Content-Length or chunked)."""
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {line.split(":", 1)[0].lower(): line.split(":", 1)[1].strip() for line in lines[1:] if ":" in line}
    if "content-length" in headers:
        body = await reader.readexactly(int(headers["content-length"]))
    else:
        body = b""
        while True:
            size = int((await reader.readline()).strip(), 16)
            body += await reader.readexactly(size + 2)
            if size == 0:
                break
    return status, body


async def tracker(user, token, start, stop):
    await asyncio.sleep(random.uniform(0, EVERY))
    reader, writer = await asyncio.open_connection(host, port)
    lat, lon = 53.91 + random.uniform(-0.01, 0.01), 27.56 + random.uniform(-0.01, 0.01)
    heading = random.uniform(0, 6.28)
    next_send = time.monotonic()
    while time.monotonic() < stop:
        now = datetime.datetime.now(datetime.timezone.utc)
        points = []
        for i in range(5):  # a runner at about 3 m/s, one position a second
            lat += 0.000027 * random.uniform(0.8, 1.2) * math.cos(heading)
            lon += 0.000045 * random.uniform(0.8, 1.2) * math.sin(heading)
            when = now - datetime.timedelta(seconds=4 - i)
            points.append({"lat": round(lat, 7), "lon": round(lon, 7), "ele": 220.0,
                           "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z")})
        body = json.dumps({"points": points}).encode()
        began = time.monotonic()
        writer.write((f"POST /api/v1/competitions/{competition}/tracking HTTP/1.1\r\nHost: {host}\r\n"
                      f"Authorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                      f"Content-Length: {len(body)}\r\n\r\n").encode() + body)
        await writer.drain()
        status, answer = await read_response(reader)
        ended = time.monotonic()
        if status != 200:
            failures.append((status, answer[:200]))
        else:
            batch = json.loads(answer)["tracking"]["batch"]
            sent_at[f"{user}:{batch}"] = began
            if began > start:
                latencies.append(ended - began)
        next_send += EVERY
        await asyncio.sleep(max(0, next_send - time.monotonic()))
    writer.close()


async def follow(token, ready):
    reader, writer = await asyncio.open_connection(host, port)
    writer.write((f"GET /api/v1/competitions/{competition}/tracking/live HTTP/1.1\r\nHost: {host}\r\n"
                  f"Authorization: Bearer {token}\r\nAccept: text/event-stream\r\n\r\n").encode())
    await writer.drain()
    buffer = b""
    while True:
        data = await reader.read(65536)
        if not data:
            return
        now = time.monotonic()
        buffer += data
        if b"event: tracks" in buffer:
            ready.set()
        *events, buffer = buffer.split(b"\n\n")
        for event in events:
            for line in event.split(b"\n"):
                if line.startswith(b"id: "):
                    arrived_at.setdefault(line[4:].strip().decode(), now)


def percentile(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * p))] if ordered else float("nan")


async def main():
    ready = asyncio.Event()
    follower = asyncio.create_task(follow(trackers[0][1], ready))
    await asyncio.wait_for(ready.wait(), 30)
    begin = time.monotonic()
    warm = begin + EVERY * 2  # the first rounds warm up caches and connections
    stop = begin + seconds
    await asyncio.gather(*(tracker(user, token, warm, stop) for user, token in trackers))
    await asyncio.sleep(2)
    follower.cancel()
    lags = [arrived_at[key] - began for key, began in sent_at.items() if key in arrived_at and began > warm]
    missing = [key for key, began in sent_at.items() if key not in arrived_at and began > warm]
    rate = len(latencies) / (stop - warm)
    print(f"{len(trackers)} participants, a batch of 5 positions each every {EVERY:.0f} s, "
          f"{len(latencies)} batches measured over {stop - warm:.0f} s ({rate:.0f} per second)")
    print(f"batch POST: p50 {percentile(latencies, 0.5) * 1000:.1f} ms, p99 {percentile(latencies, 0.99) * 1000:.1f} ms, "
          f"max {max(latencies) * 1000:.1f} ms; refused {len(failures)}")
    print(f"live page behind: p50 {percentile(lags, 0.5) * 1000:.1f} ms, p99 {percentile(lags, 0.99) * 1000:.1f} ms, "
          f"max {max(lags) * 1000:.1f} ms; batches never seen on the stream {len(missing)}")
    if failures:
        print("first refusal:", failures[0])


asyncio.run(main())
