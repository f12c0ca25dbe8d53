#!/usr/bin/env python3
"""kill -9 during writes: nothing lost, nothing half-written.

Each trial starts a write into a copy of the same SQLite database, kills the process with
SIGKILL at a random moment within the write's usual length, then checks the database
(`PRAGMA integrity_check`, `PRAGMA foreign_key_check`), that what the write stores is either
all there or not there at all (each write is one transaction), and that running the write
again succeeds and stores everything.

Writes: `campus import iis` of a corpus of group schedules (Benchmarks/make-iis-corpus.py from
the real fixtures), `campus library scan` of a folder of short MP3 files, an upload that replaces
a file of the library through the API (the server is killed), and `campus sync iis` into
PostgreSQL from a local IIS-compatible server (this script) holding the corpus. The sync stores
schedules in batches, each a transaction: after a kill each group has all of its lessons and its
last-update date, or neither.

    Benchmarks/kill-trials.py [--binary .build/release/campus] [--fixtures ../shared/fixtures/iis]
                              [--trials 100] [--only import|scan|upload|sync]
"""

import argparse
from contextlib import closing
import hashlib
import http.client
import http.server
import json
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from pathlib import Path

HERE = Path(__file__).resolve().parent


def counts(database, tables):
    # closing(): sqlite3's own context manager ends the transaction but leaves the connection
    # open, and its -wal and -shm files would vanish whenever it is collected (mid-copy).
    with closing(sqlite3.connect(database)) as db:
        return {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables}


def check(database):
    with closing(sqlite3.connect(database)) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        foreign = db.execute("PRAGMA foreign_key_check").fetchall()
    return integrity == "ok" and not foreign, f"integrity {integrity}, foreign key problems {len(foreign)}"


def run(arguments):
    started = time.perf_counter()
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


def free_port():
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def request(port, method, path, token=None, body=None, content_type="application/json", timeout=30):
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    headers = {"Content-Type": content_type}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    connection.request(method, path, body=body, headers=headers)
    response = connection.getresponse()
    return response.status, response.read()


def serve(binary, data, port):
    process = subprocess.Popen(
        [binary, "serve", "--data-dir", str(data), "--port", str(port), "--host", "127.0.0.1",
         "--log-level", "error"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if request(port, "GET", "/health", timeout=1)[0] == 200:
                return process
        except OSError:
            time.sleep(0.02)
    process.kill()
    raise SystemExit("campus serve did not start")


def upload_once(port, token, audio):
    query = urllib.parse.urlencode({"name": "Lecture.mp3", "folder": "Lectures/Kill"})
    return request(port, "POST", f"/api/v1/library/uploads?{query}", token, audio, "application/octet-stream")


def upload_state(data, versions):
    """What a killed upload left: which version the file is, and which the catalogue describes."""
    database = data / "campus.sqlite"
    healthy, detail = check(database)
    with closing(sqlite3.connect(database)) as db:
        rows = db.execute("SELECT duration FROM media WHERE path LIKE '%/uploads/Lectures/Kill/Lecture.mp3'").fetchall()
    folder = data / "uploads" / "Lectures" / "Kill"
    visible = sorted(path.name for path in folder.iterdir() if not path.name.startswith(".")) if folder.exists() else []
    staging = len([path for path in folder.iterdir() if path.name.startswith(".")]) if folder.exists() else 0
    digest = hashlib.sha256((folder / "Lecture.mp3").read_bytes()).hexdigest() if visible else None
    file_version = next((name for name, (sha, _) in versions.items() if sha == digest), None)
    row_version = None
    if len(rows) == 1:
        row_version = min(versions, key=lambda name: abs(versions[name][1] - (rows[0][0] or 0)))
    return healthy, detail, visible, file_version, len(rows), row_version, staging


def upload_trials(binary, trials_count, work):
    """Uploads a new version of a file the library holds; the server is killed meanwhile."""
    audio = {}
    for name, seconds in (("old", 60), ("new", 120)):
        path = work / f"{name}.mp3"
        subprocess.run(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", f"sine=frequency=330:duration={seconds}",
             "-c:a", "libmp3lame", "-b:a", "128k", str(path)], check=True)
        audio[name] = path.read_bytes()
    versions = {name: (hashlib.sha256(data).hexdigest(), seconds) for (name, data), seconds in zip(audio.items(), (60, 120))}
    # The base holds the old version: its file and its row (and the admin's session). The catalogue
    # keeps absolute paths, so every trial runs in the same folder, restored from a snapshot.
    data = work / "upload-data"
    snapshot = work / "upload-snapshot"
    run([binary, "user", "create", "--data-dir", str(data), "--email", "admin@kill.test", "--password", "kill-trials",
         "--admin"])
    port = free_port()
    server = serve(binary, data, port)
    try:
        token = json.loads(request(port, "POST", "/api/v1/auth/login", body=json.dumps(
            {"email": "admin@kill.test", "password": "kill-trials"}))[1])["token"]
        assert upload_once(port, token, audio["old"])[0] == 201
    finally:
        server.terminate()
        server.wait()
    shutil.copytree(data, snapshot)
    server = serve(binary, data, port)
    try:
        started = time.perf_counter()
        assert upload_once(port, token, audio["new"])[0] == 201
        length = time.perf_counter() - started
    finally:
        server.terminate()
        server.wait()
    outcomes = {}
    failures = []
    for trial in range(trials_count):
        shutil.rmtree(data)
        shutil.copytree(snapshot, data)
        server = serve(binary, data, port)
        sender = threading.Thread(target=lambda: _ignore(upload_once, port, token, audio["new"]))
        sender.start()
        time.sleep(random.uniform(0, length * 1.1))
        server.kill()
        server.wait()
        sender.join()
        healthy, detail, visible, file_version, rows, row_version, staging = upload_state(data, versions)
        outcome = f"file {file_version}, catalogue {row_version}" + (", a staging file left" if staging else "")
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if not healthy:
            failures.append(f"upload trial {trial}: {detail}")
        elif visible != ["Lecture.mp3"] or file_version is None or rows != 1:
            failures.append(f"upload trial {trial}: half-written: files {visible}, version {file_version}, rows {rows}")
        server = serve(binary, data, port)
        try:
            # The next start catches the catalogue up with the file under the name.
            deadline = time.monotonic() + 10
            while upload_state(data, versions)[5] != file_version and time.monotonic() < deadline:
                time.sleep(0.05)
            caught_up = upload_state(data, versions)
            if caught_up[5] != file_version:
                failures.append(f"upload trial {trial}: after a restart the catalogue has {caught_up[5]}, "
                                f"the file is {file_version}")
            status = upload_once(port, token, audio["new"])[0]
        finally:
            server.terminate()
            server.wait()
        after = upload_state(data, versions)
        if status != 201 or after[3] != "new" or after[5] != "new":
            failures.append(f"upload trial {trial}: the rerun answered {status}, left {after}")
    print(f"upload replacing a {len(audio['old']) >> 10} KiB file by a {len(audio['new']) >> 10} KiB one: "
          f"{trials_count} trials killed within {length * 1.1:.2f} s: "
          + ", ".join(f"{count} × {outcome}" for outcome, count in sorted(outcomes.items()))
          + f"; {len(failures)} failures")
    return failures


def _ignore(function, *arguments):
    try:
        function(*arguments)
    except OSError:
        pass


def iis_server(corpus, fixtures):
    """A local IIS-compatible server holding the corpus: its groups, the real employees, a
    last-update date per group, and no teachers' schedules."""
    schedules = {path.stem: path.read_bytes() for path in corpus.glob("*.json")}
    template = json.loads((Path(fixtures) / "groups.json").read_text())[0]
    groups = json.dumps([
        {**template, "name": name, "id": 900000 + index} for index, name in enumerate(sorted(schedules))
    ]).encode()
    employees = (Path(fixtures) / "employees.json").read_bytes()

    class Handler(http.server.BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            path = url.path.removeprefix("/api/v1/")
            body = None
            if path == "student-groups":
                body = groups
            elif path == "employees/all":
                body = employees
            elif path == "last-update-date/student-group" and query.get("groupNumber", [""])[0] in schedules:
                body = b'{"lastUpdateDate": "01.09.2026"}'
            elif path == "schedule":
                body = schedules.get(query.get("studentGroup", [""])[0])
            self.send_response(200 if body is not None else 404)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body or b"")))
            self.end_headers()
            try:
                self.wfile.write(body or b"")
            except (BrokenPipeError, ConnectionResetError):
                pass  # the sync was killed while its answer was on the way: what the trials do

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def psql(url, sql):
    result = subprocess.run(["psql", url, "-qAtc", sql], check=True, capture_output=True, text=True)
    return result.stdout.strip()


def sync_state(url):
    """Each group's lesson links and whether its last-update date is stored."""
    rows = psql(url, """SELECT g.name, g.last_update IS NOT NULL,
        (SELECT COUNT(*) FROM lesson_groups l WHERE l.group_name = g.name) FROM study_groups g""")
    state = {}
    for line in rows.splitlines():
        name, dated, links = line.split("|")
        state[name] = (dated == "t", int(links))
    # Lessons without a group, and links naming a lesson, group, teacher or room that is not
    # there (PostgreSQL checks these references with statement triggers, migration step 25).
    orphans = int(psql(url, """SELECT (SELECT COUNT(*) FROM lessons WHERE NOT EXISTS
        (SELECT 1 FROM lesson_groups g WHERE g.lesson_id = lessons.id))
      + (SELECT COUNT(*) FROM lesson_groups k WHERE NOT EXISTS (SELECT 1 FROM lessons l WHERE l.id = k.lesson_id)
           OR NOT EXISTS (SELECT 1 FROM study_groups g WHERE g.name = k.group_name))
      + (SELECT COUNT(*) FROM lesson_teachers k WHERE NOT EXISTS (SELECT 1 FROM lessons l WHERE l.id = k.lesson_id)
           OR NOT EXISTS (SELECT 1 FROM teachers t WHERE t.id = k.teacher_id))
      + (SELECT COUNT(*) FROM lesson_rooms k WHERE NOT EXISTS (SELECT 1 FROM lessons l WHERE l.id = k.lesson_id)
           OR NOT EXISTS (SELECT 1 FROM rooms r WHERE r.id = k.room_id))"""))
    return state, orphans


def sync_trials(binary, fixtures, postgres, trials_count, work, corpus):
    """`campus sync iis` into PostgreSQL, killed at random moments."""
    server = iis_server(corpus, fixtures)
    source = f"http://127.0.0.1:{server.server_address[1]}"
    root = postgres.rsplit("/", 1)[0]
    failures = []
    outcomes = {"groups stored whole": [], "groups not yet stored": []}
    try:
        psql(postgres, "DROP DATABASE IF EXISTS kill_base")
        psql(postgres, "CREATE DATABASE kill_base")
        base = f"{root}/kill_base"
        run([binary, "migrate", "--database", base])
        command = [binary, "sync", "iis", "--base-url", source, "--data-dir", str(work / "sync-data")]

        def fresh(name):
            psql(postgres, f"DROP DATABASE IF EXISTS {name}")
            psql(postgres, f"CREATE DATABASE {name} TEMPLATE kill_base")
            return f"{root}/{name}"

        reference = fresh("kill_reference")
        length = run([*command, "--database", reference])
        whole, _ = sync_state(reference)
        expected = {name: links for name, (_, links) in whole.items() if links}
        for trial in range(trials_count):
            url = fresh("kill_trial")
            process = subprocess.Popen(
                [*command, "--database", url], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            time.sleep(random.uniform(0, length * 1.1))
            process.send_signal(signal.SIGKILL)
            process.wait()
            state, orphans = sync_state(url)
            stored = 0
            for name, links in expected.items():
                dated, have = state.get(name, (False, 0))
                if (dated, have) == (True, links):
                    stored += 1
                elif dated or have:
                    failures.append(f"sync trial {trial}: group {name} half-written ({have} of {links} lessons, dated {dated})")
            if orphans:
                failures.append(f"sync trial {trial}: {orphans} lessons without a group or links naming nothing")
            outcomes["groups stored whole"].append(stored)
            outcomes["groups not yet stored"].append(len(expected) - stored)
            run([*command, "--database", url])
            after, orphans = sync_state(url)
            if {name: links for name, (_, links) in after.items() if links} != expected or orphans:
                failures.append(f"sync trial {trial}: the rerun did not store everything")
        psql(postgres, "DROP DATABASE IF EXISTS kill_trial")
        psql(postgres, "DROP DATABASE IF EXISTS kill_reference")
    finally:
        server.shutdown()
    stored = outcomes["groups stored whole"]
    print(f"PostgreSQL sync of {len(expected)} groups: {trials_count} trials killed within {length * 1.1:.2f} s "
          f"(the sync takes {length:.2f} s): groups stored whole when killed {min(stored)}–{max(stored)} "
          f"(median {sorted(stored)[len(stored) // 2]}), none half-written; {len(failures)} failures"
          + ("; every rerun stored everything" if not failures else ""))
    return failures


def trials(name, binary, command, tables, base, trials_count, work):
    """Runs `command` (with --data-dir added) killed at random moments; returns failures."""
    reference_dir = work / f"{name}-reference"
    shutil.copytree(base, reference_dir)
    length = run([binary, *command, "--data-dir", str(reference_dir)])
    full = counts(reference_dir / "campus.sqlite", tables)
    empty = counts(base / "campus.sqlite", tables)
    outcomes = {"nothing": 0, "everything": 0}
    failures = []
    for trial in range(trials_count):
        data = work / f"{name}-{trial}"
        shutil.copytree(base, data)
        process = subprocess.Popen(
            [binary, *command, "--data-dir", str(data)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(random.uniform(0, length * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait()
        database = data / "campus.sqlite"
        healthy, detail = check(database)
        after = counts(database, tables)
        if not healthy:
            failures.append(f"{name} trial {trial}: {detail}")
        elif after == empty:
            outcomes["nothing"] += 1
        elif after == full:
            outcomes["everything"] += 1
        else:
            failures.append(f"{name} trial {trial}: half-written: {after} (before {empty}, whole {full})")
        run([binary, *command, "--data-dir", str(data)])
        if counts(database, tables) != full or not check(database)[0]:
            failures.append(f"{name} trial {trial}: the rerun did not store everything")
        shutil.rmtree(data)
    print(
        f"{name}: {trials_count} trials killed within {length * 1.1:.2f} s (the write takes {length:.2f} s): "
        f"{outcomes['nothing']} left nothing, {outcomes['everything']} had committed everything, "
        f"{len(failures)} failures; every rerun stored everything"
        if not failures
        else f"{name}: {len(failures)} failures"
    )
    return failures


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=".build/release/campus")
    parser.add_argument("--fixtures", default="../shared/fixtures/iis")
    parser.add_argument("--trials", type=int, default=100)
    parser.add_argument("--only", choices=["import", "scan", "upload", "sync"])
    parser.add_argument("--postgres", help="a PostgreSQL URL that may create databases (else scripts/postgres starts one)")
    options = parser.parse_args()
    binary = str(Path(options.binary).resolve())
    work = Path(tempfile.mkdtemp())
    failures = []
    try:
        base = work / "base"
        run([binary, "migrate", "--data-dir", str(base)])
        if options.only in (None, "import"):
            corpus = work / "corpus"
            subprocess.run(
                [sys.executable, str(HERE / "make-iis-corpus.py"), options.fixtures, str(corpus), "300"],
                check=True, stdout=subprocess.DEVNULL)
            files = sorted(str(path) for path in corpus.glob("*.json"))
            failures += trials(
                "IIS import of 300 schedules", binary, ["import", "iis", *files],
                ["lessons", "lesson_groups", "lesson_teachers", "study_groups", "teachers"], base, options.trials,
                work)
        if options.only in (None, "scan"):
            library = work / "library" / "Music" / "Kill"
            library.mkdir(parents=True)
            subprocess.run(
                ["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "sine=frequency=440:duration=2",
                 "-c:a", "libmp3lame", "-b:a", "64k", str(library / "0.mp3")], check=True)
            for index in range(1, 20):
                shutil.copy(library / "0.mp3", library / f"{index}.mp3")
            failures += trials(
                "library scan of 20 files", binary, ["library", "scan", str(work / "library")],
                ["media"], base, options.trials, work)
        if options.only in (None, "upload"):
            failures += upload_trials(binary, options.trials, work)
        if options.only in (None, "sync"):
            corpus = work / "sync-corpus"
            subprocess.run(
                [sys.executable, str(HERE / "make-iis-corpus.py"), options.fixtures, str(corpus), "200"],
                check=True, stdout=subprocess.DEVNULL)
            postgres, folder = options.postgres, None
            if not postgres:
                started = subprocess.run(
                    [str(HERE.parent / "scripts" / "postgres"), "start"], check=True, capture_output=True, text=True)
                postgres, folder = started.stdout.splitlines()[:2]
            try:
                failures += sync_trials(binary, options.fixtures, postgres, options.trials, work, corpus)
            finally:
                if folder:
                    subprocess.run([str(HERE.parent / "scripts" / "postgres"), "stop", folder], check=False)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
