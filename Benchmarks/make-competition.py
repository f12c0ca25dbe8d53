#!/usr/bin/env python3
"""Adds a competition with N participants (and their accounts) to a Campus SQLite database, for
the ranking, live-ranking and live-tracking benchmarks. Prints the competition's id.

    Benchmarks/make-competition.py DATABASE N OWNER_EMAIL
        a time competition: results of 20 to 60 minutes in whole seconds, so many are tied;
        every twentieth participant has no result yet.
    Benchmarks/make-competition.py DATABASE N OWNER_EMAIL --tracking TOKENS
        a distance competition without results, for live tracking: each participant gets an API
        session whose token is written to TOKENS as "user_id token" lines."""
import argparse
import hashlib
import random
import secrets
import sqlite3
import time

arguments = argparse.ArgumentParser()
arguments.add_argument("database")
arguments.add_argument("count", type=int)
arguments.add_argument("owner_email")
arguments.add_argument("--tracking", metavar="TOKENS", help="a live-tracking competition; tokens written here")
options = arguments.parse_args()
count, tracking = options.count, options.tracking is not None
db = sqlite3.connect(options.database)
db.execute("PRAGMA foreign_keys = ON")
now = int(time.time())
name, metric, unit, prefix = (f"Live {count}", "distance", "km", "live") if tracking else \
    (f"Benchmark {count}", "time", "s", "bench")
with db:
    owner = db.execute("SELECT id FROM users WHERE email_key = ?", (options.owner_email.lower(),)).fetchone()[0]
    cursor = db.execute(
        "INSERT INTO competitions (name, search_key, description, metric, unit, active, participant_uploads,"
        " owner_id, series_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?, 0, ?, ?)",
        (name, name.lower(), "Many participants.", metric, unit, int(tracking), owner, now, now))
    competition = cursor.lastrowid
    db.execute("UPDATE competitions SET series_id = id WHERE id = ?", (competition,))
    random.seed(count)
    base = db.execute("SELECT COALESCE(MAX(id), 0) FROM users").fetchone()[0]
    users = [(f"{prefix}{competition}-{i}@campus.test", f"{prefix}{competition}-{i}@campus.test", "!", f"Runner{i}",
              f"{prefix.title()}{competition}", "user", 0, now, now) for i in range(count)]
    db.executemany("INSERT INTO users (email, email_key, password_hash, first_name, last_name, role, subgroup,"
                   " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", users)
    ids = [row[0] for row in db.execute("SELECT id FROM users WHERE id > ? ORDER BY id", (base,))]
    result = lambda i: None if tracking or i % 20 == 0 else float(random.randint(1200, 3600))
    db.executemany(
        "INSERT INTO entries (competition_id, user_id, result, joined_at, result_at) VALUES (?, ?, ?, ?, ?)",
        [(competition, user, result(i), now, None if result(i) is None else now) for i, user in enumerate(ids)])
    if tracking:
        tokens = [secrets.token_urlsafe(32) for _ in ids]
        db.executemany("INSERT INTO sessions (user_id, token_hash, kind, created_at, last_seen_at, expires_at)"
                       " VALUES (?, ?, 'api', ?, ?, ?)",
                       [(user, hashlib.sha256(token.encode()).hexdigest(), now, now, now + 86400)
                        for user, token in zip(ids, tokens)])
        with open(options.tracking, "w") as file:
            file.writelines(f"{user} {token}\n" for user, token in zip(ids, tokens))
print(competition)
