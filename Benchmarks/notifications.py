#!/usr/bin/env python3
"""Notifications at scale (issue 39): one schedule change followed by N students (10,000 by
default), each with a Web Push subscription at a push service on 127.0.0.1 (Python's threading
HTTP server answering 201; it decrypts a sample with http_ece to check what it takes). The
students and their subscriptions are written into the SQLite database directly, before the server
starts; the change is imported with `campus import iis` while the server runs. Prints the time
from the import's end to the first push and to the last, pushes per second, and the server's CPU
time per push (utime + stime from /proc, before and after).
    Benchmarks/notifications.py [CAMPUS_BINARY] [FIXTURES_DIR] [N]"""
import base64
import copy
import datetime
import json
import os
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

ROOT = Path(__file__).resolve().parents[1]
BINARY = sys.argv[1] if len(sys.argv) > 1 else str(ROOT / ".build/release/campus")
FIXTURES = Path(sys.argv[2] if len(sys.argv) > 2 else ROOT.parent / "shared/fixtures/iis")
COUNT = int(sys.argv[3]) if len(sys.argv) > 3 else 10_000


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def dotted(day):
    return day.strftime("%d.%m.%Y")


def this_term(schedule):
    today = datetime.date.today()
    start, end = today - datetime.timedelta(days=14), today + datetime.timedelta(days=150)
    schedule = copy.deepcopy(schedule)
    schedule["startDate"], schedule["endDate"] = dotted(start), dotted(end)
    schedule["exams"] = []
    for lessons in schedule["schedules"].values():
        for lesson in lessons:
            if lesson.get("dateLesson") is None:
                lesson["startLessonDate"], lesson["endLessonDate"] = dotted(start), dotted(end)
    return schedule


class Received:
    def __init__(self):
        self.count = 0
        self.first = None
        self.last = None
        self.samples = []
        self.lock = threading.Lock()


def serve(received):
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args):
            pass

        def do_POST(self):
            body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
            now = time.monotonic()
            with received.lock:
                received.count += 1
                received.first = received.first or now
                received.last = now
                if len(received.samples) < 20:
                    received.samples.append(body)
            self.send_response(201)
            self.send_header("Content-Length", "0")
            self.end_headers()

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def cpu_seconds(pid):
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    work = Path(tempfile.mkdtemp())
    data = work / "data"
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    (work / "a.json").write_text(json.dumps(original, ensure_ascii=False))
    subprocess.run([BINARY, "import", "iis", "--data-dir", str(data), str(work / "a.json")], check=True,
                   capture_output=True)
    received = Received()
    push = serve(received)
    origin = f"http://127.0.0.1:{push.server_address[1]}"
    key = ec.generate_private_key(ec.SECP256R1())
    auth = os.urandom(16)
    public = b64url(key.public_key().public_bytes(serialization.Encoding.X962,
                                                  serialization.PublicFormat.UncompressedPoint))
    # The server migrates the database on its first start: start it once, stop it, then add the students.
    port = 18000 + os.getpid() % 1000
    command = [BINARY, "serve", "--data-dir", str(data), "--port", str(port), "--push-allow", origin]
    log = open(work / "campus.log", "w")
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    time.sleep(3)
    server.terminate()
    server.wait()
    database = sqlite3.connect(data / "campus.sqlite")
    now = int(time.time())
    database.executemany(
        "INSERT INTO users (email, email_key, password_hash, first_name, last_name, role, study_group, subgroup,"
        " created_at, updated_at) VALUES (?, ?, 'x', 'Ann', 'Lee', 'user', '151004', 0, ?, ?)",
        [(f"s{n}@example.org", f"s{n}@example.org", now, now) for n in range(COUNT)])
    database.execute(
        "INSERT INTO push_subscriptions (user_id, endpoint, p256dh, auth, created_at)"
        " SELECT id, ? || '/push/' || id, ?, ?, ? FROM users", (origin, public, b64url(auth), now * 1000))
    database.commit()
    database.close()
    server = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT)
    time.sleep(5)
    changed = copy.deepcopy(original)
    monday = next(l for l in changed["schedules"]["Понедельник"] if l["numSubgroup"] == 0)
    monday["auditories"] = ["505-2 к."]
    (work / "b.json").write_text(json.dumps(changed, ensure_ascii=False))
    cpu_before = cpu_seconds(server.pid)
    subprocess.run([BINARY, "import", "iis", "--data-dir", str(data), str(work / "b.json")], check=True,
                   capture_output=True)
    imported = time.monotonic()
    deadline = imported + 300
    while received.count < COUNT and time.monotonic() < deadline:
        time.sleep(0.05)
    cpu = cpu_seconds(server.pid) - cpu_before
    server.terminate()
    server.wait()
    push.shutdown()
    for body in received.samples:
        json.loads(http_ece.decrypt(body, private_key=key, auth_secret=auth, version="aes128gcm"))
    first = (received.first or imported) - imported
    last = (received.last or imported) - imported
    print(f"subscribers: {COUNT}, pushes received: {received.count} ({len(received.samples)} decrypted and read)")
    print(f"first push {first:.2f} s after the import, last {last:.2f} s after it")
    print(f"pushes per second (first to last): {received.count / max(last - first, 0.001):.0f}")
    print(f"server CPU: {cpu:.2f} s in all, {cpu / max(received.count, 1) * 1000:.2f} ms per push")
    if received.count < COUNT:
        sys.exit("not every push arrived")


if __name__ == "__main__":
    main()
