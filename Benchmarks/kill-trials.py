#!/usr/bin/env python3
"""kill -9 during writes: nothing lost, nothing half-written.

Each trial starts a write into a copy of the same SQLite database, kills the process with
SIGKILL at a random moment within the write's usual length, then checks the database
(`PRAGMA integrity_check`, `PRAGMA foreign_key_check`), that what the write stores is either
all there or not there at all (each write is one transaction), and that running the write
again succeeds and stores everything.

Writes: `campus import iis` of a corpus of group schedules (Benchmarks/make-iis-corpus.py from
the real fixtures), and `campus library scan` of a folder of short MP3 files.

    Benchmarks/kill-trials.py [--binary .build/release/campus] [--fixtures ../shared/fixtures/iis]
                              [--trials 100] [--only import|scan]
"""

import argparse
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def counts(database, tables):
    with sqlite3.connect(database) as db:
        return {table: db.execute(f"SELECT COUNT(*) FROM {table}").fetchone()[0] for table in tables}


def check(database):
    with sqlite3.connect(database) as db:
        integrity = db.execute("PRAGMA integrity_check").fetchone()[0]
        foreign = db.execute("PRAGMA foreign_key_check").fetchall()
    return integrity == "ok" and not foreign, f"integrity {integrity}, foreign key problems {len(foreign)}"


def run(arguments):
    started = time.perf_counter()
    subprocess.run(arguments, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return time.perf_counter() - started


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
    parser.add_argument("--only", choices=["import", "scan"])
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
    finally:
        shutil.rmtree(work, ignore_errors=True)
    for failure in failures:
        print(failure)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
