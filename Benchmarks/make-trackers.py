#!/usr/bin/env python3
"""Adds a distance competition with N joined participants, each with an API session whose token
is known, to a Campus SQLite database, for the live-tracking benchmark. Prints the competition's
id and writes "user_id token" lines to TOKENS.
    Benchmarks/make-trackers.py DATABASE N OWNER_EMAIL TOKENS   → prints the competition id"""
import hashlib
import secrets
import sqlite3
import sys
import time

path, count, owner_email, tokens_path = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
db = sqlite3.connect(path)
db.execute("PRAGMA foreign_keys = ON")
now = int(time.time())
with db:
    owner = db.execute("SELECT id FROM users WHERE email_key = ?", (owner_email.lower(),)).fetchone()[0]
    cursor = db.execute(
        "INSERT INTO competitions (name, search_key, description, metric, unit, active, participant_uploads,"
        " owner_id, series_id, created_at, updated_at) VALUES (?, ?, ?, 'distance', 'km', 1, 1, ?, 0, ?, ?)",
        (f"Live {count}", f"live {count}", "Everybody tracking at once.", owner, now, now))
    competition = cursor.lastrowid
    db.execute("UPDATE competitions SET series_id = id WHERE id = ?", (competition,))
    base = db.execute("SELECT COALESCE(MAX(id), 0) FROM users").fetchone()[0]
    db.executemany("INSERT INTO users (email, email_key, password_hash, first_name, last_name, role, subgroup,"
                   " created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                   [(f"live{competition}-{i}@campus.test", f"live{competition}-{i}@campus.test", "!",
                     f"Runner{i}", f"Live{competition}", "user", 0, now, now) for i in range(count)])
    ids = [row[0] for row in db.execute("SELECT id FROM users WHERE id > ? ORDER BY id", (base,))]
    db.executemany("INSERT INTO entries (competition_id, user_id, joined_at) VALUES (?, ?, ?)",
                   [(competition, user, now) for user in ids])
    tokens = [secrets.token_urlsafe(32) for _ in ids]
    db.executemany("INSERT INTO sessions (user_id, token_hash, kind, created_at, last_seen_at, expires_at)"
                   " VALUES (?, ?, 'api', ?, ?, ?)",
                   [(user, hashlib.sha256(token.encode()).hexdigest(), now, now, now + 86400)
                    for user, token in zip(ids, tokens)])
with open(tokens_path, "w") as file:
    file.writelines(f"{user} {token}\n" for user, token in zip(ids, tokens))
print(competition)
