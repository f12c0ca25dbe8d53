#!/usr/bin/env python3
"""Adds a competition with N participants (and their accounts) to a Campus SQLite database, for
the ranking and live-ranking benchmarks. Results are times of 20 to 60 minutes in whole seconds,
so many are tied; every twentieth participant has no result yet.
    Benchmarks/make-competition.py DATABASE N OWNER_EMAIL   → prints the competition id"""
import random
import sqlite3
import sys
import time

path, count, owner_email = sys.argv[1], int(sys.argv[2]), sys.argv[3]
db = sqlite3.connect(path)
db.execute("PRAGMA foreign_keys = ON")
now = int(time.time())
with db:
    owner = db.execute("SELECT id FROM users WHERE email_key = ?", (owner_email.lower(),)).fetchone()[0]
    cursor = db.execute(
        "INSERT INTO competitions (name, search_key, description, metric, unit, active, participant_uploads,"
        " owner_id, series_id, created_at, updated_at) VALUES (?, ?, ?, 'time', 's', 1, 0, ?, 0, ?, ?)",
        (f"Benchmark {count}", f"benchmark {count}", "Many participants.", owner, now, now))
    competition = cursor.lastrowid
    db.execute("UPDATE competitions SET series_id = id WHERE id = ?", (competition,))
    random.seed(count)
    base = db.execute("SELECT COALESCE(MAX(id), 0) FROM users").fetchone()[0]
    users = [(f"bench{competition}-{i}@campus.test", f"bench{competition}-{i}@campus.test", "!", f"Runner{i}",
              f"Bench{competition}", "user", 0, now, now) for i in range(count)]
    db.executemany("INSERT INTO users (email, email_key, password_hash, first_name, last_name, role, subgroup,"
                   " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", users)
    ids = [row[0] for row in db.execute("SELECT id FROM users WHERE id > ? ORDER BY id", (base,))]
    db.executemany(
        "INSERT INTO entries (competition_id, user_id, result, joined_at, result_at) VALUES (?, ?, ?, ?, ?)",
        [(competition, user, None if i % 20 == 0 else float(random.randint(1200, 3600)), now,
          None if i % 20 == 0 else now) for i, user in enumerate(ids)])
print(competition)
