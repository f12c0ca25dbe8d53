"""A station that runs itself (issue 42): Liquidsoap, Debian's package, as a real DJ source client
in its show's slot and refused outside it, with its titles through the admin API; the show
schedule read by a real iCalendar parser."""
import datetime
import subprocess
import time

import icalendar
import recurring_ical_events

from conftest import Campus, run_cli

PASSWORD = "on-air-2026"


def iso(moment):
    return moment.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def liquidsoap(tmp_path, port, mount, user, password, track):
    """Liquidsoap playing `track` in a loop to the mount as `user`: its log file and process."""
    script = tmp_path / f"{user}.liq"
    log = tmp_path / f"{user}.log"
    script.write_text(f"""
settings.init.allow_root.set(true)
settings.log.stdout.set(true)
settings.log.level.set(4)
settings.frame.audio.samplerate.set(44100)
s = mksafe(single("{track}"))
output.icecast(%mp3(bitrate=128), host="127.0.0.1", port={port}, user="{user}", password="{password}",
  mount="radio/{mount}", name="Campus FM", s)
""")
    process = subprocess.Popen(["liquidsoap", str(script)], stdout=open(log, "w"), stderr=subprocess.STDOUT)
    return log, process


def station(campus, mount):
    return campus.call("GET", f"/api/v1/stations/{mount}").json()


def test_liquidsoap_broadcasts_as_a_dj_in_its_show_only_and_says_its_titles(tmp_path, data_dir):
    run_cli("user", "create", "--email", "admin@example.org", "--password", "correct horse", "--admin",
            data_dir=data_dir)
    track = tmp_path / "track.mp3"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                    "sine=frequency=440:duration=30", "-c:a", "libmp3lame", "-b:a", "128k",
                    "-metadata", "artist=Лікві", "-metadata", "title=Soap Opera", str(track)], check=True)
    campus = Campus(data_dir).start()
    processes = []
    try:
        admin = campus.login("admin@example.org")
        dana = campus.register("dana@example.org", first="Dana", last="Host")
        ann = campus.register("ann@example.org")
        assert campus.call("POST", "/api/v1/stations", token=admin, json={
            "name": "Campus FM", "mount": "studio", "sourcePassword": PASSWORD}).status_code == 201
        now = datetime.datetime.now(datetime.timezone.utc)
        for title, host, start, end in [("Morning", dana, now - datetime.timedelta(minutes=10),
                                         now + datetime.timedelta(hours=1)),
                                        ("Evening", ann, now + datetime.timedelta(hours=3),
                                         now + datetime.timedelta(hours=4))]:
            created = campus.call("POST", "/api/v1/stations/studio/shows", token=admin, json={
                "title": title, "hosts": [host["id"]], "startsAt": iso(start), "endsAt": iso(end)})
            assert created.status_code == 201, created.text
        ann_keys = campus.call("POST", "/api/v1/stations/studio/dj-credentials",
                               token=campus.login("ann@example.org")).json()
        dana_keys = campus.call("POST", "/api/v1/stations/studio/dj-credentials",
                                token=campus.login("dana@example.org")).json()

        # Ann's show is hours away: Liquidsoap is refused (and keeps trying), the station stays off.
        log, early = liquidsoap(tmp_path, campus.port, "studio", ann_keys["user"], ann_keys["password"], track)
        processes.append(early)
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline and "403" not in log.read_text():
            assert not station(campus, "studio")["onAir"]
            time.sleep(0.25)
        assert "403" in log.read_text(), log.read_text()
        assert not station(campus, "studio")["onAir"]
        early.terminate()
        early.wait(timeout=10)

        # Dana's show is on: Liquidsoap goes on the air, and its track's title arrives through
        # /admin/metadata with her credentials.
        log, source = liquidsoap(tmp_path, campus.port, "studio", dana_keys["user"], dana_keys["password"], track)
        processes.append(source)
        deadline = time.monotonic() + 30
        current = {}
        while time.monotonic() < deadline:
            current = station(campus, "studio")
            if current["live"] and current.get("nowPlaying") == "Лікві - Soap Opera":
                break
            time.sleep(0.25)
        assert current["live"] and current.get("nowPlaying") == "Лікві - Soap Opera", (current, log.read_text())
        history = campus.call("GET", "/api/v1/stations/studio/history").json()["items"]
        assert history and history[0]["title"] == "Лікві - Soap Opera" and history[0]["source"] == "live"
        # Monitors read the same through Icecast's status.
        status = campus.call("GET", "/status-json.xsl").json()["icestats"]["source"]
        assert status["title"] == "Лікві - Soap Opera" and status["server_name"] == "Campus FM"
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
        campus.stop()


def test_the_show_schedule_is_a_calendar_feed_that_icalendar_expands(data_dir):
    run_cli("user", "create", "--email", "admin@example.org", "--password", "correct horse", "--admin",
            data_dir=data_dir)
    campus = Campus(data_dir, extra=["--time-zone", "Europe/Sofia"]).start()
    try:
        admin = campus.login("admin@example.org")
        host = campus.register("dana@example.org", first="Dana", last="Host")
        campus.call("POST", "/api/v1/stations", token=admin, json={
            "name": "Campus FM", "mount": "studio", "sourcePassword": PASSWORD})
        # Mondays and Wednesdays 22:30 to 00:30 in Sofia: over midnight, and over the change of
        # summer time when a test runs in March or October.
        created = campus.call("POST", "/api/v1/stations/studio/shows", token=admin, json={
            "title": "Нощна смяна", "hosts": [host["id"]], "weekdays": [1, 3], "from": "22:30", "to": "00:30"})
        assert created.status_code == 201, created.text
        feed = campus.call("GET", "/api/v1/stations/studio/shows.ics")
        assert feed.status_code == 200 and feed.headers["Content-Type"].startswith("text/calendar")
        calendar = icalendar.Calendar.from_ical(feed.content)
        start = datetime.datetime.now(datetime.timezone.utc)
        # Shows that begin in the next 14 days: between() also gives a show on the air now (this
        # test once ran on a Monday at 23:40 in Sofia and counted five).
        events = [event for event in
                  recurring_ical_events.of(calendar).between(start, start + datetime.timedelta(days=14))
                  if event["DTSTART"].dt >= start]
        assert len(events) == 4, feed.text
        for event in events:
            begins = event["DTSTART"].dt
            ends = event["DTEND"].dt
            assert str(event["SUMMARY"]) == "Нощна смяна"
            assert begins.isoweekday() in (1, 3) and (begins.hour, begins.minute) == (22, 30), begins
            assert str(begins.tzinfo) == "Europe/Sofia" or begins.utcoffset() in (
                datetime.timedelta(hours=2), datetime.timedelta(hours=3))
            assert ends - begins == datetime.timedelta(hours=2)
            assert "Dana Host" in str(event["DESCRIPTION"])
    finally:
        campus.stop()


def test_fifty_listeners_give_the_statistics_the_test_expects(tmp_path, data_dir):
    """50 raw listeners, two of each of 25 players, hear a source for about three seconds, all at
    once: 50 sessions, 25 unique listeners, a peak of 50, and 50 × 3 seconds of listening."""
    import socket
    import threading

    run_cli("user", "create", "--email", "admin@example.org", "--password", "correct horse", "--admin",
            data_dir=data_dir)
    campus = Campus(data_dir).start()
    source = None
    try:
        admin = campus.login("admin@example.org")
        campus.call("POST", "/api/v1/stations", token=admin, json={
            "name": "Campus FM", "mount": "stats", "sourcePassword": PASSWORD})
        source = subprocess.Popen(
            ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
             "sine=frequency=440:duration=60", "-c:a", "libmp3lame", "-b:a", "128k", "-content_type",
             "audio/mpeg", "-f", "mp3", f"icecast://source:{PASSWORD}@127.0.0.1:{campus.port}/radio/stats"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and not station(campus, "stats")["onAir"]:
            time.sleep(0.1)
        connected = threading.Barrier(51)
        heard = [0] * 50
        durations = [0.0] * 50

        def listen(index):
            with socket.create_connection(("127.0.0.1", campus.port), timeout=10) as connection:
                connection.sendall(f"GET /radio/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                   f"User-Agent: Player/{index % 25}\r\n\r\n".encode())
                started = time.monotonic()
                heard[index] = len(connection.recv(65536))
                connected.wait(timeout=30)
                # Everybody is connected (the peak is 50): each listens on for three seconds.
                end = time.monotonic() + 3
                while time.monotonic() < end:
                    heard[index] += len(connection.recv(65536))
                durations[index] = time.monotonic() - started

        threads = [threading.Thread(target=listen, args=(index,)) for index in range(50)]
        for thread in threads:
            thread.start()
        connected.wait(timeout=30)
        # While they listen, Icecast's listclients lists all fifty.
        clients = campus.call("GET", "/admin/listclients", auth=("source", PASSWORD),
                              params={"mount": "/radio/stats"})
        assert "<Listeners>50</Listeners>" in clients.text, clients.text
        for thread in threads:
            thread.join(timeout=30)
        assert all(count > 0 for count in heard)
        expected_hours = sum(durations) / 3600
        figures = {}
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            # Today and yesterday together: the listening may cross midnight in the server's zone.
            answer = campus.call("GET", "/api/v1/stations/stats/statistics", token=admin, params={"days": 2})
            assert answer.status_code == 200, answer.text
            figures = answer.json()["total"]
            if figures["sessions"] == 50:
                break
            time.sleep(0.2)
        assert figures["sessions"] == 50 and figures["uniqueListeners"] == 25, figures
        assert figures["peakListeners"] == 50, figures
        # Sessions are written to the second: each may lose or gain up to a second.
        assert abs(figures["hours"] - expected_hours) <= 50 / 3600, (figures, expected_hours)
        assert campus.call("GET", "/api/v1/stations/stats/statistics").status_code == 401
    finally:
        if source and source.poll() is None:
            source.kill()
        campus.stop()
