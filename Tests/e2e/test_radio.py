"""Live radio as Icecast clients use it: a real ffmpeg source, ffprobe and 200 raw listeners."""
import base64
import json
import socket
import subprocess
import threading
import time

from selenium.webdriver.common.by import By

from browsing import log_in, wait_text
from conftest import Campus, run_cli

PASSWORD = "on-air-2026"


def source(campus, mount, seconds, legacy=False):
    """ffmpeg broadcasting a tone to the mount at its real rate, as Icecast's source clients do."""
    command = ["ffmpeg", "-hide_banner", "-loglevel", "error", "-re", "-f", "lavfi", "-i",
               f"sine=frequency=440:duration={seconds}", "-c:a", "libmp3lame", "-b:a", "128k",
               "-content_type", "audio/mpeg"]
    if legacy:
        command += ["-legacy_icecast", "1"]
    command += ["-f", "mp3", f"icecast://source:{PASSWORD}@127.0.0.1:{campus.port}/radio/{mount}"]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)


def wait_on_air(campus, mount, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        station = campus.call("GET", f"/api/v1/stations/{mount}").json()
        if station["onAir"]:
            return station
        time.sleep(0.1)
    raise AssertionError(f"{mount} never went on the air:\n{campus.read_log()}")


def listen(port, mount, seconds, results, index):
    """A raw listener: asks for ICY metadata and counts what it hears for `seconds`."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
        connection.sendall(f"GET /radio/{mount} HTTP/1.1\r\nHost: 127.0.0.1\r\nIcy-MetaData: 1\r\n\r\n".encode())
        received = b""
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            chunk = connection.recv(65536)
            if not chunk:
                break
            received += chunk
        results[index] = received


def test_two_hundred_listeners_hear_an_ffmpeg_source_with_its_title(data_dir):
    run_cli("station", "add", "Campus FM", "--mount", "campus.mp3", "--source-password", PASSWORD,
            "--genre", "Rock", data_dir=data_dir)
    campus = Campus(data_dir).start()
    broadcast = source(campus, "campus.mp3", seconds=12)
    try:
        wait_on_air(campus, "campus.mp3")
        update = campus.call("GET", "/admin/metadata", auth=("source", PASSWORD),
                             params={"mount": "/radio/campus.mp3", "mode": "updinfo", "song": "Кино — Кукушка"})
        assert update.status_code == 200 and "<return>1</return>" in update.text

        # ffprobe, as a player, decodes what Campus relays.
        probe = subprocess.run(["ffprobe", "-v", "error", "-read_intervals", "%+2", "-show_entries",
                                "stream=codec_name,sample_rate", "-of", "json", f"{campus.url}/radio/campus.mp3"],
                               capture_output=True, text=True, timeout=30)
        streams = json.loads(probe.stdout)["streams"]
        assert streams[0]["codec_name"] == "mp3" and streams[0]["sample_rate"] == "44100", probe.stderr

        # 200 listeners at once, each hearing the live audio with the title in its metadata.
        results = [None] * 200
        threads = [threading.Thread(target=listen, args=(campus.port, "campus.mp3", 4, results, index))
                   for index in range(200)]
        for thread in threads:
            thread.start()
        time.sleep(2)
        assert campus.call("GET", "/api/v1/stations/campus.mp3").json()["listeners"] == 200
        for thread in threads:
            thread.join(timeout=20)
        for received in results:
            head, _, body = received.partition(b"\r\n\r\n")
            assert b"icy-metaint: 16000" in head.lower(), head
            assert len(body) > 64_000, len(body)
            assert "StreamTitle='Кино — Кукушка';".encode() in body
        station = campus.call("GET", "/api/v1/stations/campus.mp3").json()
        assert station["nowPlaying"] == "Кино — Кукушка"

        # The pages: the station on the air with what it plays, and its live player.
        campus.register("ann@example.org")
        cookie = {"Cookie": f"campus_session={campus.login('ann@example.org')}"}
        stations = campus.call("GET", "/listen/radio", headers=cookie).text
        assert "Campus FM" in stations and "On the air" in stations and "Кино — Кукушка" in stations
        page = campus.call("GET", "/listen/radio/campus.mp3", headers=cookie).text
        assert 'data-play-station="campus.mp3"' in page and 'data-stream="/radio/campus.mp3"' in page
        assert 'href="/radio/campus.mp3"' in page  # The stream's address, for other players.
    finally:
        broadcast.kill()
        broadcast.wait()
        campus.stop()


def test_a_source_that_stops_takes_the_station_off_the_air(data_dir):
    run_cli("station", "add", "Short", "--mount", "short", "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    try:
        broadcast = source(campus, "short", seconds=2, legacy=True)
        wait_on_air(campus, "short")
        _, errors = broadcast.communicate(timeout=30)
        assert broadcast.returncode == 0, errors
        deadline = time.monotonic() + 10
        while campus.call("GET", "/api/v1/stations/short").json()["onAir"] and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not campus.call("GET", "/api/v1/stations/short").json()["onAir"]
        assert campus.call("GET", "/radio/short").status_code == 404
    finally:
        campus.stop()


def test_a_stations_page_follows_it_live(data_dir):
    """GET /api/v1/stations/{mount}/live: the station at once, then on the air, its new title, off
    the air, each as a `station` event."""
    run_cli("station", "add", "Live", "--mount", "live", "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    broadcast = None
    try:
        stream = campus.call("GET", "/api/v1/stations/live/live", stream=True)
        assert stream.status_code == 200 and stream.headers["Content-Type"].startswith("text/event-stream")
        lines = stream.iter_lines(decode_unicode=True)

        def next_station():
            for line in lines:
                if line.startswith("data: "):
                    return json.loads(line[len("data: "):])
            raise AssertionError("the stream ended")

        assert next_station()["onAir"] is False
        broadcast = source(campus, "live", seconds=3)
        assert next_station()["onAir"] is True
        campus.call("GET", "/admin/metadata", auth=("source", PASSWORD),
                    params={"mount": "/radio/live", "mode": "updinfo", "song": "Second song"})
        assert next_station()["nowPlaying"] == "Second song"
        broadcast.communicate(timeout=30)
        assert next_station()["onAir"] is False
        stream.close()
    finally:
        if broadcast and broadcast.poll() is None:
            broadcast.kill()
        campus.stop()


def test_a_station_plays_in_the_mini_player_across_pages_and_in_the_history(browser, campus):
    """A student plays a station from Listen → Radio: the mini player shows it live with what it
    plays (no seeking, no "end of item" sleep timer), keeps playing on another page, and the
    listening is a radio event of the student's history."""
    admin = campus.login("admin@campus.test", "campus-admin")
    created = campus.call("POST", "/api/v1/stations", token=admin, json={
        "name": "Campus FM", "mount": "live.mp3", "genre": "Rock", "sourcePassword": PASSWORD})
    assert created.status_code == 201, created.text
    broadcast = source(campus, "live.mp3", seconds=40)
    try:
        wait_on_air(campus, "live.mp3")
        def say(title):
            campus.call("GET", "/admin/metadata", auth=("source", PASSWORD),
                        params={"mount": "/radio/live.mp3", "mode": "updinfo", "song": title})
        say("Morning show")

        log_in(browser, campus, "student@campus.test", "campus-student")
        browser.get(campus.url + "/listen/radio?region=")
        browser.find_element(By.CSS_SELECTOR, '[data-play-station="live.mp3"]').click()
        wait_text(browser, (By.ID, "player-title"), "Campus FM")
        wait_text(browser, (By.ID, "player-subtitle"), "Morning show")
        playing = "return !document.getElementById('player-audio').paused"
        deadline = time.monotonic() + 10
        while not browser.execute_script(playing) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert browser.execute_script(playing)
        assert browser.find_element(By.ID, "player-time").text.lower() == "live"
        assert not browser.find_element(By.ID, "player-seek").is_displayed()
        assert not browser.find_element(By.ID, "player-next").is_displayed()
        assert browser.find_element(By.CSS_SELECTOR, '#player-sleep option[value="end"]').get_attribute("disabled")

        # Another page: the player goes on, and follows what the station says.
        browser.execute_script("window.stillThisPage = true")
        browser.find_element(By.CSS_SELECTOR, "a[href='/listen']").click()
        wait_text(browser, (By.TAG_NAME, "h1"), "Listen")
        assert browser.execute_script("return window.stillThisPage") is True
        assert browser.execute_script(playing)
        say("Evening news")
        wait_text(browser, (By.ID, "player-subtitle"), "Evening news")

        # Pausing live radio stops it.
        browser.find_element(By.ID, "player-toggle").click()
        time.sleep(0.5)
        assert not browser.execute_script(playing)

        student = campus.login("student@campus.test", "campus-student")
        # Written when the stream starts; its length once the player let go of it.
        deadline = time.monotonic() + 15
        radio = []
        while time.monotonic() < deadline and not (radio and radio[0]["seconds"] >= 1):
            history = campus.call("GET", "/api/v1/history", token=student).json()
            radio = [entry for entry in history if entry["kind"] == "radio"]
            time.sleep(0.2)
        assert radio and radio[0]["station"] == {"name": "Campus FM", "mount": "live.mp3"}, radio
        assert radio[0]["seconds"] >= 1, radio
        assert len(radio) == 1, radio
    finally:
        broadcast.kill()
        broadcast.wait()


def raw_answer(connection):
    """One answer read from a raw connection: its head and its body (by Content-Length)."""
    received = b""
    while b"\r\n\r\n" not in received:
        chunk = connection.recv(65536)
        if not chunk:
            return received, b""
        received += chunk
    head, _, body = received.partition(b"\r\n\r\n")
    length = 0
    for line in head.split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        if name.strip().lower() == b"content-length":
            length = int(value.strip())
    while len(body) < length:
        chunk = connection.recv(65536)
        if not chunk:
            break
        body += chunk
    return head, body


def basic(password):
    return "Basic " + base64.b64encode(f"source:{password}".encode()).decode()


def raw_source(campus, mount, password, extra=""):
    """A source's PUT on a connection of its own; the head of the answer."""
    with socket.create_connection(("127.0.0.1", campus.port), timeout=10) as connection:
        connection.sendall((f"PUT /radio/{mount} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {basic(password)}\r\n"
                            f"Content-Type: audio/mpeg\r\n{extra}\r\n").encode())
        return raw_answer(connection)[0]


def test_35_3_source_passwords_are_throttled_apart_from_logins(data_dir):
    """Issue 35, 3: wrong source passwords (SOURCE/PUT and /admin/metadata) are throttled per address
    and mount as logins are, without locking out logins or other stations."""
    for mount in ("guarded", "other"):
        run_cli("station", "add", mount.title(), "--mount", mount, "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    try:
        campus.register("ann@example.org")

        def metadata(mount, password):
            return campus.call("GET", "/admin/metadata", auth=("source", password),
                               params={"mount": f"/radio/{mount}", "mode": "updinfo", "song": "Hi"})

        # A source retrying one wrong password counts once; five different guesses are five.
        answers = [raw_source(campus, "guarded", "wrong-one").split(b" ")[1] for _ in range(4)]
        answers += [raw_source(campus, "guarded", f"wrong-{n}").split(b" ")[1] for n in ("two", "three")]
        answers += [str(metadata("guarded", f"wrong-{n}").status_code).encode() for n in ("four", "five")]
        assert answers == [b"401"] * 8
        throttled = metadata("guarded", "wrong-six")
        assert throttled.status_code == 429 and int(throttled.headers["Retry-After"]) > 800, throttled.text
        assert metadata("guarded", PASSWORD).status_code == 429
        assert raw_source(campus, "guarded", PASSWORD).startswith(b"HTTP/1.1 429")
        # Neither another station nor a user's login is locked out; the log names no password.
        assert metadata("other", PASSWORD).status_code == 404  # Not on the air.
        assert campus.login("ann@example.org")
        assert "wrong-one" not in campus.read_log() and PASSWORD not in campus.read_log()
    finally:
        campus.stop()


def test_35_16_a_put_after_a_get_on_its_connection_starts_nothing(data_dir):
    run_cli("station", "add", "Kept", "--mount", "kept", "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    try:
        with socket.create_connection(("127.0.0.1", campus.port), timeout=10) as connection:
            connection.sendall(b"GET /api/v1/stations/kept HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
            head, _ = raw_answer(connection)
            assert head.startswith(b"HTTP/1.1 200"), head
            connection.sendall((f"PUT /radio/kept HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: {basic(PASSWORD)}\r\n"
                                "Content-Type: audio/mpeg\r\nContent-Length: 4\r\n\r\nabcd").encode())
            head, _ = raw_answer(connection)
            assert head.startswith(b"HTTP/1.1 400"), head
        time.sleep(1)
        log = campus.read_log()
        assert "source connected" not in log and "source gone" not in log, log
        assert campus.call("GET", "/api/v1/stations/kept").json()["onAir"] is False
    finally:
        campus.stop()


def test_35_17_a_source_head_over_16_kib_is_answered_431(data_dir):
    run_cli("station", "add", "Big", "--mount", "big", "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    try:
        for end in (b"", b"\r\n\r\n"):
            with socket.create_connection(("127.0.0.1", campus.port), timeout=10) as connection:
                connection.sendall(b"SOURCE /radio/big HTTP/1.0\r\nX-Padding: " + b"a" * (16 << 10) + end)
                head, body = raw_answer(connection)
                assert head.startswith(b"HTTP/1.1 431"), head
                assert b"16 KiB" in body
    finally:
        campus.stop()


def test_35_6_7_titles_are_one_line_and_cannot_inject_icy_fields(data_dir):
    run_cli("station", "add", "Titles", "--mount", "titles", "--source-password", PASSWORD, data_dir=data_dir)
    campus = Campus(data_dir).start()
    broadcast = source(campus, "titles", seconds=60)
    try:
        wait_on_air(campus, "titles")

        def say(query):
            # Sent as the prober sent it: the query written by hand.
            return campus.call("GET", "/admin/metadata?mount=/radio/titles&mode=updinfo&" + query,
                               auth=("source", PASSWORD))

        for query, title in [("song=Ctl%01%02%0CX", "Ctl X"), ("song=A%00B", "AB"),
                             ("song=%EF%BF%BEx%E2%80%AEy%0B", "xy"), ("song=One%0D%0ATwo", "One Two"),
                             ("song=Caf%E9", "Café")]:
            assert say(query).status_code == 200
            assert campus.call("GET", "/api/v1/stations/titles").json()["nowPlaying"] == title, query
        assert say("song=Song';StreamUrl='http://evil.example/';").status_code == 200
        results = [None]
        listen(campus.port, "titles", 3, results, 0)
        body = results[0].partition(b"\r\n\r\n")[2]
        assert "StreamTitle='Song’;StreamUrl=’http://evil.example/’;';".encode() in body
        assert b"StreamUrl='http" not in body
    finally:
        broadcast.kill()
        broadcast.wait()
        campus.stop()


def read_body(connection, until, idle=5):
    """What a listener hears until the answer ends, nothing comes for `idle` seconds or `until`
    passes, the HTTP/1.1 chunk framing taken off."""
    received = b""
    deadline = time.monotonic() + until
    last = time.monotonic()
    connection.settimeout(0.5)
    while time.monotonic() < deadline and time.monotonic() - last < idle:
        try:
            chunk = connection.recv(65536)
        except socket.timeout:
            continue
        if not chunk:
            break
        received += chunk
        last = time.monotonic()
    head, _, body = received.partition(b"\r\n\r\n")
    if b"transfer-encoding: chunked" not in head.lower():
        return head, body
    plain, at = b"", 0
    while True:
        line_end = body.find(b"\r\n", at)
        if line_end < 0:
            break
        size = int(body[at:line_end].split(b";")[0], 16)
        if size == 0 or line_end + 2 + size > len(body):
            plain += body[line_end + 2:line_end + 2 + size]
            break
        plain += body[line_end + 2:line_end + 2 + size]
        at = line_end + 2 + size + 2
    return head, plain


def test_listeners_without_metadata_hear_every_byte_and_one_that_stops_reading_is_let_go(data_dir, tmp_path):
    """Listeners that do not ask for ICY metadata are written to on their connections' event loops
    (ConnectionListener): each hears the source's bytes as they came, in order; one whose socket
    backs up (it reads nothing) is let go once 512 KiB wait for it, and the others hear on."""
    run_cli("station", "add", "Fast", "--mount", "fast", "--source-password", PASSWORD, data_dir=data_dir)
    audio = tmp_path / "tone.mp3"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i",
                    "sine=frequency=440:duration=240", "-c:a", "libmp3lame", "-b:a", "320k", str(audio)], check=True)
    data = audio.read_bytes()
    assert len(data) > 9_000_000
    campus = Campus(data_dir).start()
    try:
        feed = socket.create_connection(("127.0.0.1", campus.port), timeout=10)
        feed.sendall((f"SOURCE /radio/fast HTTP/1.0\r\nAuthorization: {basic(PASSWORD)}\r\n"
                      "Content-Type: audio/mpeg\r\nice-name: Fast\r\n\r\n").encode())
        answer = feed.recv(4096)
        assert answer.startswith(b"HTTP/1.0 200") or answer.startswith(b"HTTP/1.1 200"), answer
        step = 64 << 10
        feed.sendall(data[:step])
        wait_on_air(campus, "fast")
        # One listener that never reads, with a small receive buffer so that its socket backs up soon.
        slow = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        slow.connect(("127.0.0.1", campus.port))
        slow.sendall(b"GET /radio/fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        results = [None] * 4

        def hear(index):
            with socket.create_connection(("127.0.0.1", campus.port), timeout=10) as connection:
                connection.sendall(b"GET /radio/fast HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                results[index] = read_body(connection, until=60)

        threads = [threading.Thread(target=hear, args=(index,)) for index in range(4)]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + 10
        while campus.call("GET", "/api/v1/stations/fast").json()["listeners"] < 5 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert campus.call("GET", "/api/v1/stations/fast").json()["listeners"] == 5
        # The rest of the audio, at about 5 MB/s (sixteen times its own rate).
        for start in range(step, len(data), step):
            feed.sendall(data[start:start + step])
            time.sleep(0.012)
        deadline = time.monotonic() + 10
        while campus.call("GET", "/api/v1/stations/fast").json()["listeners"] > 4 and time.monotonic() < deadline:
            time.sleep(0.1)
        assert campus.call("GET", "/api/v1/stations/fast").json()["listeners"] == 4
        feed.close()
        for thread in threads:
            thread.join(timeout=90)
        for head, body in results:
            assert head.startswith(b"HTTP/1.1 200") and b"icy-metaint" not in head.lower(), head
            assert b"audio/mpeg" in head.lower(), head
            # From where it joined (a burst of what came before, or the next chunk) to the very end.
            offset = data.find(body[:4096])
            assert offset >= 0 and len(body) > len(data) - 2 * step, (offset, len(body))
            assert body == data[offset:], (offset, len(body), len(data))
        # The slow one was let go: its connection ends with far less than the whole.
        slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        _, heard = read_body(slow, until=15)
        slow.close()
        assert len(heard) < len(data) - 1_000_000, len(heard)
    finally:
        campus.stop()
