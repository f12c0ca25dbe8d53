"""The `campus` command line as an operator uses it."""
import os
import re
import sqlite3
import subprocess
import time

import requests

from conftest import BINARY, Campus, make_postgres_database, run_cli


def test_help_lists_the_commands():
    output = run_cli("--help").stdout
    for command in ("serve", "migrate", "user", "demo"):
        assert command in output


def test_migrate_applies_once(data_dir):
    first = run_cli("migrate", data_dir=data_dir).stdout
    assert "1 accounts (applied now)" in first
    second = run_cli("migrate", data_dir=data_dir).stdout
    assert "1 accounts" in second and "applied now" not in second


def test_migrate_on_postgres():
    database = make_postgres_database()
    assert "1 accounts (applied now)" in run_cli("migrate", database=database).stdout


def test_bad_options_are_explained(data_dir):
    result = run_cli("migrate", "--database", "mysql://nope", check=False)
    assert result.returncode != 0
    assert "postgres://" in result.stderr
    result = run_cli("serve", "--time-zone", "Mars/Olympus", data_dir=data_dir, check=False)
    assert result.returncode != 0
    assert "IANA time zone" in result.stderr


def test_create_admin_then_log_in_through_the_api(data_dir):
    created = run_cli("user", "create", "--email", "Boss@Example.org", "--admin", "--password", "secret123",
                      "--first-name", "Olga", "--last-name", "Boss", data_dir=data_dir).stdout
    assert "Created admin Boss@Example.org" in created
    generated = run_cli("user", "create", "--email", "org@example.org", "--organizer", data_dir=data_dir).stdout
    password = re.search(r"Password: (\S+)", generated).group(1)

    server = Campus(data_dir).start()
    try:
        token = server.login("boss@example.org", "secret123")
        me = server.call("GET", "/api/v1/me", token=token).json()
        assert me["role"] == "admin" and me["firstName"] == "Olga"
        organizer = server.call("GET", "/api/v1/me", token=server.login("org@example.org", password)).json()
        assert organizer["role"] == "organizer"
    finally:
        server.stop()


def test_create_rejects_bad_input(data_dir):
    result = run_cli("user", "create", "--email", "not-an-email", "--password", "short", data_dir=data_dir,
                     check=False)
    assert result.returncode != 0
    assert "is not an email address" in result.stderr


def test_reset_link_works_while_the_server_runs(data_dir):
    server = Campus(data_dir, extra=["--base-url", "https://campus.example.org"]).start()
    try:
        server.register("ann@example.org")
        old = server.login("ann@example.org")
        link = run_cli("user", "reset-link", "ANN@example.org", "--base-url", "https://campus.example.org",
                       data_dir=data_dir).stdout.strip()
        assert link.startswith("https://campus.example.org/password/reset?token=")
        token = link.split("token=")[1]
        reset = server.call("POST", "/api/v1/auth/password-reset/confirm",
                            json={"token": token, "password": "brand new pass"})
        assert reset.status_code == 204
        assert server.call("GET", "/api/v1/me", token=old).status_code == 401
        server.login("ann@example.org", "brand new pass")
        unknown = run_cli("user", "reset-link", "nobody@example.org", data_dir=data_dir, check=False)
        assert unknown.returncode != 0 and "No account" in unknown.stderr
    finally:
        server.stop()


def test_set_role_and_list(data_dir):
    run_cli("user", "create", "--email", "a@example.org", "--password", "secret123", data_dir=data_dir)
    assert "is now an organizer" in run_cli("user", "set-role", "a@example.org", "organizer", data_dir=data_dir).stdout
    listing = run_cli("user", "list", data_dir=data_dir).stdout
    assert "a@example.org\torganizer" in listing
    assert "1 account\n" in listing
    run_cli("user", "create", "--email", "admin@example.org", "--admin", "--password", "secret123",
            data_dir=data_dir)
    last = run_cli("user", "set-role", "admin@example.org", "user", data_dir=data_dir, check=False)
    assert last.returncode != 0 and "only admin" in last.stderr
    # What the command line did is in the audit log, once each; the refused change is not.
    run_cli("calendar", "--pairs", "08:30-09:50 10:00-11:20", data_dir=data_dir)
    with sqlite3.connect(data_dir / "campus.sqlite") as database:
        rows = database.execute("SELECT action, actor_name, target_label, after_value FROM audit_log ORDER BY id")
        audited = [(action, actor, label) for action, actor, label, _ in rows.fetchall()]
    assert audited == [("account.created", "command line", "a@example.org"),
                       ("account.role", "command line", "a@example.org"),
                       ("account.created", "command line", "admin@example.org"),
                       ("timetable.settings", "command line", None)], audited


def test_the_cli_speaks_the_terminals_language(data_dir):
    """CAMPUS_LANGUAGE, else the POSIX locale (LANG, LC_ALL) decides; counts take CLDR's forms,
    and what programs read (the tab-separated list) stays as it is."""
    for number in range(1, 3):
        run_cli("user", "create", "--email", f"p{number}@example.org", "--password", "secret123",
                data_dir=data_dir)
    russian = run_cli("user", "list", data_dir=data_dir, language="ru").stdout
    assert "p1@example.org\tuser" in russian and "2 аккаунта" in russian, russian
    command = [BINARY, "user", "set-role", "p1@example.org", "organizer", "--data-dir", str(data_dir)]
    environment = {k: v for k, v in os.environ.items() if k not in ("CAMPUS_LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    environment["LANG"] = "uk_UA.UTF-8"
    ukrainian = subprocess.run(command, capture_output=True, text=True, timeout=60, env=environment).stdout
    assert "p1@example.org" in ukrainian and "організатор" in ukrainian, ukrainian
    missing = run_cli("user", "set-role", "nobody@example.org", "user", data_dir=data_dir, check=False,
                      language="bg")
    assert missing.returncode != 0 and "nobody@example.org" in missing.stderr
    assert "No account" not in missing.stderr, missing.stderr


def test_import_refusals_are_said_in_the_terminals_language(data_dir, tmp_path):
    """A file's refusal names the file and the field as they are, and says the rest in Russian."""
    broken = tmp_path / "group.json"
    broken.write_text('{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":'
                      '[{"subject":"X","startLessonTime":"9-00","endLessonTime":"10:20"}]}}')
    english = run_cli("import", "iis", str(broken), data_dir=data_dir, check=False)
    assert english.returncode != 0
    assert "group.json: schedules.Понедельник[0].startLessonTime: “9-00” is not a time like 09:00." in english.stderr
    russian = run_cli("import", "iis", str(broken), data_dir=data_dir, check=False, language="ru")
    assert "group.json: schedules.Понедельник[0].startLessonTime: «9-00»" in russian.stderr, russian.stderr
    assert "is not a time" not in russian.stderr


def test_serve_prints_the_url_and_demo_accounts(data_dir):
    server = Campus(data_dir, demo=True).start()
    try:
        log = server.read_log()
        assert f"Open http://127.0.0.1:{server.port}/ in your browser." in log
        assert "student@campus.test / campus-student" in log
        assert "Campus Demo University" in server.call("GET", "/").text
    finally:
        server.stop()


def wait_for_log(server, text, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline and text not in server.read_log():
        time.sleep(0.1)
    return server.read_log()


def test_the_demo_carries_its_media_and_a_station_on_the_air(data_dir):
    """Issue 35: a plain `campus serve --demo` (what scripts/run runs) makes its media library with
    ffmpeg, scans it, and keeps a station on the air with the demo's lectures; without ffmpeg it
    starts all the same and says what is missing."""
    server = Campus(data_dir, demo=True, own_demo_media=True).start(timeout=180)
    try:
        log = wait_for_log(server, "Demo accounts")
        assert "ffmpeg is not installed" not in log
        token = server.login("student@campus.test", "campus-student")
        albums = server.call("GET", "/api/v1/collections/album", token=token).json()
        assert sorted(album["title"] for album in albums) == ["First Light", "Night Shift"]
        station = {}
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and not station.get("onAir"):
            station = server.call("GET", "/api/v1/stations/demo.mp3").json()
            time.sleep(0.2)
        assert station.get("onAir") is True and station["live"] is False, station
        assert station["name"] == "Campus Radio"
        with requests.get(server.url + "/radio/demo.mp3", stream=True, timeout=30) as stream:
            assert stream.status_code == 200 and stream.headers["Content-Type"] == "audio/mpeg"
            received = 0
            for chunk in stream.iter_content(8192):
                received += len(chunk)
                if received >= 32_000:
                    break
        assert received >= 32_000
    finally:
        server.stop()

    bare = Campus(data_dir.parent / "bare-data", demo=True, own_demo_media=True,
                  environment={"PATH": "/nonexistent"}).start()
    try:
        log = wait_for_log(bare, "ffmpeg is not installed")
        assert "The demo has no media and no radio: ffmpeg is not installed (apt-get install ffmpeg)." in log
        assert bare.call("GET", "/api/v1/stations/demo.mp3").status_code == 404
        assert "Demo accounts" in log
    finally:
        bare.stop()


def test_radio_stations_are_added_listed_changed_and_removed(data_dir):
    """`campus station`: a station at a mount with its own source password (kept hashed), what is
    wrong said in words, a second station at the same mount refused."""
    added = run_cli("station", "add", "Campus FM", "--mount", "campus.mp3", "--source-password", "on-air-2026",
                    "--genre", "Rock", "--region", "Minsk", data_dir=data_dir)
    assert "Added the station Campus FM at /radio/campus.mp3." in added.stdout
    listed = run_cli("station", "list", data_dir=data_dir).stdout
    assert "/radio/campus.mp3\tCampus FM\tRock\tMinsk\t1000" in listed and "1 station" in listed
    bad = run_cli("station", "add", "Bad", "--mount", "Bad Mount", data_dir=data_dir, check=False)
    assert bad.returncode != 0 and "lower-case letters" in bad.stderr and "source password" in bad.stderr
    assert bad.returncode == 65, bad.returncode  # fields that broke their rules
    twice = run_cli("station", "add", "Again", "--mount", "campus.mp3", "--source-password", "12345678",
                    data_dir=data_dir, check=False)
    assert twice.returncode != 0 and "Another station broadcasts at campus.mp3." in twice.stderr
    # A refusal's reason is the exit status (sysexits.h): what was sent does not fit, 65.
    assert twice.returncode == 65, twice.returncode
    changed = run_cli("station", "edit", "campus.mp3", "--name", "Campus FM Live", "--listener-limit", "50",
                      data_dir=data_dir)
    assert "Changed the station Campus FM Live" in changed.stdout
    assert "Campus FM Live\tRock\tMinsk\t50" in run_cli("station", "list", data_dir=data_dir).stdout
    # The password is not stored as it was written.
    database = sqlite3.connect(data_dir / "campus.sqlite")
    (stored,) = database.execute("SELECT source_password_hash FROM stations").fetchone()
    database.close()
    assert "on-air-2026" not in stored and stored.startswith("$2")
    missing = run_cli("station", "remove", "nope", data_dir=data_dir, check=False)
    assert missing.returncode != 0 and "There is no station at nope." in missing.stderr
    assert missing.returncode == 66, missing.returncode  # what was named does not exist
    run_cli("station", "remove", "campus.mp3", data_dir=data_dir)
    assert "0 stations" in run_cli("station", "list", data_dir=data_dir).stdout
