#!/usr/bin/env python3
"""How soon a ranking change made on one instance reaches a live ranking on another (issue 38).

Two Campus instances on one PostgreSQL database, with a shared media directory. A live ranking
(Server-Sent Events) is followed on each; the organizer enters N results, one at a time, on the
first. For each, the time from the answer to the PUT to the `ranking` event carrying its version:
on the first instance (the one that wrote: the reference) and on the second (across instances).

    Benchmarks/cross-instance-events.py --database postgres://… [--binary .build/release/campus] [--events 100]
"""

import argparse
import http.client
import json
import shutil
import socket
import statistics
import subprocess
import tempfile
import threading
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


class Follower(threading.Thread):
    """Follows a competition's live ranking and notes when each version arrived."""

    def __init__(self, port, competition, token):
        super().__init__(daemon=True)
        self.port, self.competition, self.token = port, competition, token
        self.arrived = {}
        self.ready = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request("GET", f"/api/v1/competitions/{self.competition}/ranking/live",
                           headers={"Authorization": f"Bearer {self.token}", "Accept": "text/event-stream"})
        response = connection.getresponse()
        assert response.status == 200, response.status
        data = []
        while True:
            line = response.readline()
            if not line:
                return
            line = line.rstrip(b"\r\n")
            if line.startswith(b"data:"):
                data.append(line[5:].strip())
            elif not line and data:
                version = json.loads(b"".join(data))["version"]
                self.arrived.setdefault(version, time.perf_counter())
                data = []
                self.ready.set()


def summary(name, delays):
    delays = sorted(delays)
    return (f"{name}: median {statistics.median(delays):.1f} ms, p99 {delays[int(len(delays) * 0.99) - 1]:.1f} ms, "
            f"max {delays[-1]:.1f} ms")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/campus")
    parser.add_argument("--database", required=True)
    parser.add_argument("--events", type=int, default=100)
    options = parser.parse_args()
    work = tempfile.mkdtemp()
    ports = [free_port(), free_port()]
    servers = []
    try:
        for index, port in enumerate(ports):
            arguments = [options.binary, "serve", "--port", str(port), "--log-level", "warning", "--bcrypt-cost", "4",
                         "--data-dir", f"{work}/data{index}", "--media-dir", f"{work}/media",
                         "--database", options.database]
            if index == 0:
                arguments += ["--demo"]
            servers.append(subprocess.Popen(arguments, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            wait_healthy(port)
        first, second = ports
        status, login = call(first, "POST", "/api/v1/auth/login",
                             body={"email": "organizer@campus.test", "password": "campus-organizer"})
        assert status == 200, status
        organizer = login["token"]
        status, competition = call(first, "POST", "/api/v1/competitions", organizer,
                                   {"name": "Cross-instance events", "metric": "time"})
        assert status == 201, status
        competition = competition["id"]
        status, runner = call(first, "POST", "/api/v1/auth/login",
                              body={"email": "student@campus.test", "password": "campus-student"})
        assert call(first, "POST", f"/api/v1/competitions/{competition}/participants/me", runner["token"])[0] == 201
        me = call(first, "GET", "/api/v1/me", runner["token"])[1]["id"]
        followers = [Follower(port, competition, organizer) for port in ports]
        for follower in followers:
            follower.start()
            follower.ready.wait(10)
        here, across = [], []
        for event in range(options.events):
            status, entry = call(first, "PUT", f"/api/v1/competitions/{competition}/participants/{me}/result",
                                 organizer, {"value": 600 + event})
            assert status == 200, status
            answered = time.perf_counter()
            version = call(first, "GET", f"/api/v1/competitions/{competition}/ranking", organizer)[1]["version"]
            deadline = answered + 10
            while any(version not in follower.arrived for follower in followers):
                if time.perf_counter() > deadline:
                    raise SystemExit(f"version {version} never arrived")
                time.sleep(0.0005)
            here.append(max(0, followers[0].arrived[version] - answered) * 1000)
            across.append(max(0, followers[1].arrived[version] - answered) * 1000)
            time.sleep(0.02)
        print(f"PostgreSQL, {options.events} results entered on one instance, until the live ranking's event")
        print("  " + summary("on the instance that wrote", here))
        print("  " + summary("on the other instance", across))
    finally:
        for server in servers:
            server.terminate()
        for server in servers:
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
