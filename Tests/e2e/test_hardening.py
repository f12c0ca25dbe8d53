"""What a hostile user tried (issue 10), item by item, against the real binary: every answer is a
4xx problem document (or an import error that names the field), and the server still answers
afterwards."""
import csv
import http.server
import io
import json
import re
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest
import requests

from conftest import Campus, run_cli

ROOT = Path(__file__).resolve().parents[2]
IIS = ROOT.parent / "shared" / "fixtures" / "iis"


def assert_problem(response, status, *words):
    assert response.status_code == status, response.text
    assert response.headers["Content-Type"].startswith("application/problem+json"), response.headers
    body = response.json()
    assert body["status"] == status and body["detail"]
    text = json.dumps(body, ensure_ascii=False)
    for word in words:
        assert word in text, text
    return body


def assert_alive(campus):
    assert campus.process.poll() is None, campus.read_log()
    assert requests.get(campus.url + "/health", timeout=10).json() == {"status": "ok"}


def make_audio(path, seconds, title=None):
    command = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", f"sine=frequency=440:duration={seconds}",
               "-c:a", "libmp3lame", "-b:a", "128k"]
    if title:
        command += ["-metadata", f"title={title}"]
    subprocess.run(command + [str(path)], check=True)


@pytest.fixture(scope="module")
def library(tmp_path_factory):
    """A library with one long track (long enough that a stream outlasts socket buffers)."""
    folder = tmp_path_factory.mktemp("hardening-library")
    (folder / "Long").mkdir()
    make_audio(folder / "Long" / "long.mp3", 600)
    make_audio(folder / "Long" / "short.mp3", 2)
    return folder


@pytest.fixture
def hardened(data_dir, library):
    server = Campus(data_dir, demo=True, extra=[
        "--library", str(library), "--idle-timeout", "2", "--max-connections-per-address", "40",
        "--fetch-timeout", "2", "--max-transcodes", "3"]).start()
    yield server
    server.stop()


class Site:
    """Files (and a dripping answer) on a local web server, as another host would serve them."""

    def __init__(self, folder):
        self.folder = folder
        self.requests = []
        site = self

        class Handler(http.server.SimpleHTTPRequestHandler):
            def __init__(self, *args, **kwargs):
                super().__init__(*args, directory=str(folder), **kwargs)

            def log_message(self, *args):
                pass

            def do_GET(self):
                site.requests.append(self.path)
                if self.path == "/drip":
                    self.send_response(200)
                    self.send_header("Content-Type", "application/rss+xml")
                    self.send_header("Content-Length", "100000")
                    self.end_headers()
                    try:
                        for _ in range(200):
                            self.wfile.write(b" ")
                            self.wfile.flush()
                            time.sleep(0.5)
                    except OSError:
                        pass
                    return
                super().do_GET()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


@pytest.fixture
def site(tmp_path):
    folder = tmp_path / "site"
    folder.mkdir()
    served = Site(folder)
    yield served
    served.close()


def feed(enclosure="https://podcasts.example.org/1.mp3", image=None, title="Night Talks", encoding="UTF-8",
         doctype=""):
    image_line = f'<itunes:image href="{image}"/>' if image else ""
    return f"""<?xml version="1.0" encoding="{encoding}"?>{doctype}
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
  <channel>
    <title>{title}</title>
    <description>Talks.</description>{image_line}
    <item><title>One</title><guid>one</guid><enclosure url="{enclosure}" length="1" type="audio/mpeg"/></item>
  </channel>
</rss>"""


def tokens(campus):
    return (campus.login("admin@campus.test", "campus-admin"),
            campus.login("organizer@campus.test", "campus-organizer"),
            campus.login("student@campus.test", "campus-student"))


def media_id(campus, token, title):
    hits = campus.call("GET", "/api/v1/search", token=token, params={"q": title}).json()["items"]
    return next(h["id"] for h in hits if h["kind"] == "track" and h["title"] == title)


# 1. Dates outside 1900–2200.

def test_1_year_zero_dates_are_422_and_the_server_lives_on(hardened):
    for path in ("/api/v1/calendar/week?date=0001-01-01",
                 "/api/v1/groups/151004/schedule?from=0001-01-01&to=0001-01-07",
                 "/timetable/groups/151004?week=0001-01-01",
                 "/api/v1/calendar/week?date=9999-12-31"):
        assert_problem(requests.get(hardened.url + path), 422, "1900-01-01 to 2200-12-31")
        assert_alive(hardened)
    # The edges still work, and so does their arithmetic (the week before 1900-01-01).
    assert requests.get(hardened.url + "/api/v1/calendar/week?date=1900-01-01").status_code == 200
    assert requests.get(hardened.url + "/api/v1/groups/151004/schedule?from=2200-12-25&to=2200-12-31").ok
    admin, organizer, student = tokens(hardened)
    created = hardened.call("POST", "/api/v1/competitions", token=organizer,
                            json={"name": "Old", "metric": "distance", "startsAt": "0001-01-01T00:00:00Z"})
    assert_problem(created, 422, "startsAt")
    assert_alive(hardened)


def test_1_imports_refuse_year_zero_dates_by_field(tmp_path, data_dir):
    schedule = json.loads((IIS / "151004.json").read_text())
    day = next(iter(schedule["schedules"]))
    schedule["schedules"][day][0]["startLessonDate"] = "01.01.0001"
    (tmp_path / "old.json").write_text(json.dumps(schedule, ensure_ascii=False))
    result = run_cli("import", "iis", str(tmp_path / "old.json"), data_dir=data_dir, check=False)
    assert result.returncode != 0
    assert f"old.json: schedules.{day}[0].startLessonDate" in result.stderr, result.stderr
    assert "outside the dates Campus works with" in result.stderr


# 2. XML bombs in any encoding.

BOMB = ('<!DOCTYPE gpx [<!ENTITY a "' + "a" * 1000 + '">' +
        "".join(f'<!ENTITY a{n} "{"&a;" * 10 if n == 0 else f"&a{n - 1};" * 10}">' for n in range(6)) + "]>")


def gpx(doctype="", encoding="UTF-8", name="&a5;"):
    return (f'<?xml version="1.0" encoding="{encoding}"?>{doctype}<gpx version="1.1" creator="t" '
            f'xmlns="http://www.topografix.com/GPX/1/1"><trk><name>{name}</name><trkseg>'
            '<trkpt lat="53.9" lon="27.5"><time>2026-05-01T10:00:00Z</time></trkpt>'
            '<trkpt lat="53.91" lon="27.51"><time>2026-05-01T10:05:00Z</time></trkpt></trkseg></trk></gpx>')


def test_2_gpx_with_a_dtd_is_refused_in_utf16_too(hardened):
    admin, organizer, student = tokens(hardened)
    created = hardened.call("POST", "/api/v1/competitions", token=organizer,
                            json={"name": "Ride", "metric": "distance"}).json()
    me = hardened.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=student).json()
    url = f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/gpx"
    for body in (gpx(BOMB).encode("utf-8"), gpx(BOMB, "UTF-16").encode("utf-16"),
                 gpx(BOMB, "UTF-16").encode("utf-16-be")):
        response = hardened.call("POST", url, token=organizer, data=body,
                                 headers={"Content-Type": "application/gpx+xml"})
        assert_problem(response, 422, "DOCTYPE")
        assert_alive(hardened)
    # Without a DTD, UTF-16 is a GPX file like any other.
    plain = gpx(name="Morning").encode("utf-16")
    response = hardened.call("POST", url, token=organizer, data=plain, headers={"Content-Type": "application/gpx+xml"})
    assert response.status_code == 200, response.text
    assert response.json()["track"]["points"] == 2
    # Invalid UTF-8 in a name (which crashes FoundationXML's parser) is refused before parsing.
    broken = b'<?xml version="1.0"?><gpx \xff="1"><trk><trkseg></trkseg></trk></gpx>'
    assert_problem(hardened.call("POST", url, token=organizer, data=broken,
                                 headers={"Content-Type": "application/gpx+xml"}), 422, "UTF-8")
    assert_alive(hardened)


def test_2_rss_with_a_dtd_is_refused_in_utf16_too(tmp_path, data_dir):
    path = tmp_path / "bomb.xml"
    path.write_bytes(feed(encoding="UTF-16", doctype=BOMB.replace("gpx", "rss"), title="&a5;").encode("utf-16"))
    result = run_cli("podcast", "add", str(path), data_dir=data_dir, check=False)
    assert result.returncode != 0 and "DOCTYPE" in result.stderr, result.stderr


# 3. Feed contents never reach local files or this machine; failed transcodes are errors.

def test_3_feeds_cannot_name_local_files_or_private_hosts(hardened, site, tmp_path):
    admin, organizer, student = tokens(hardened)
    (site.folder / "secret.mp3").write_bytes(b"secret")
    # The feed itself on a private address (here, this machine): not fetched at all.
    (site.folder / "feed.xml").write_text(feed())
    response = hardened.call("POST", "/api/v1/podcasts", token=admin, json={"url": f"{site.base}/feed.xml"})
    assert_problem(response, 422, "127.0.0.1", "private")
    assert site.requests == [], "the server must not even ask"
    # Enclosures and images must be http(s) URLs; enclosures on this machine are refused.
    cases = [
        (feed(enclosure="/srv/private/secret.mp3"), "enclosure url of item 1 is not an http or https URL"),
        (feed(enclosure="file:///etc/passwd"), "enclosure url of item 1 is not an http or https URL"),
        (feed(image="/srv/private/secret.png"), "image is not an http or https URL"),
        (feed(enclosure=f"{site.base}/secret.mp3"), "enclosure url of item 1 points at 127.0.0.1"),
    ]
    for number, (text, message) in enumerate(cases):
        path = tmp_path / f"feed{number}.xml"
        path.write_text(text)
        result = run_cli("podcast", "add", str(path), data_dir=hardened.data_dir, check=False)
        assert result.returncode != 0 and message in result.stderr, result.stderr
    assert_alive(hardened)


def test_3_enclosures_on_this_machine_in_any_spelling_are_left_out_and_never_played(hardened, site, tmp_path):
    """Issue 35, item 9: other spellings of this machine and of private networks, at the import,
    in the redirects of /stream and Subsonic's stream, and in the fetch of a feed."""
    admin, organizer, student = tokens(hardened)
    port = site.server.server_address[1]
    spellings = ["http://2130706433/a.mp3", "http://0x7f.1/a.mp3", "http://[::7f00:1]:8000/a.mp3",
                 "http://[2002:7f00:1::1]/a.mp3", "http://0177.0.0.1/a.mp3", "http://127.1./a.mp3",
                 "http://[::ffff:0:7f00:1]/a.mp3", "http://[2001::7f00:1]/a.mp3", "http://[::a00:1]/a.mp3",
                 "http://%31%32%37.0.0.1/a.mp3", "http://nas/a.mp3", f"{site.base}/secret.mp3"]
    public = "https://podcasts.example.org/1.mp3"
    enclosures = [public] + spellings
    items = "".join(f'<item><title>Item {n}</title><guid>item-{n}</guid><enclosure url="{url}" length="1" '
                    'type="audio/mpeg"/></item>' for n, url in enumerate(enclosures, 1))
    path = tmp_path / "spellings.xml"
    path.write_text('<?xml version="1.0" encoding="UTF-8"?><rss version="2.0" '
                    'xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>Spellings</title>'
                    f'<description>Talks.</description>{items}</channel></rss>')
    # Left out, each with why; the rest of the feed is imported.
    added = run_cli("podcast", "add", str(path), data_dir=hardened.data_dir)
    assert f"new episodes: 1, updated: 0, left out: {len(spellings)}." in added.stdout, added.stdout
    for number in range(2, len(enclosures) + 1):
        assert f"left out: The enclosure url of item {number} points at " in added.stdout, added.stdout
    podcast = re.search(r"\(podcast (\d+)\)", added.stdout).group(1)

    # Taken in anyway (as --allow-private-fetch takes them, or an import before the rule did), they
    # are never a redirect of this server, which does not allow private addresses.
    again = run_cli("podcast", "add", "--allow-private-fetch", str(path), data_dir=hardened.data_dir)
    assert f"new episodes: {len(spellings)}, updated: 1." in again.stdout, again.stdout
    key = hardened.call("POST", "/api/v1/me/api-keys", token=student, json={"name": "Player"}).json()["key"]
    listed = hardened.call("GET", f"/api/v1/podcasts/{podcast}", token=student).json()["items"]
    assert len(listed) == len(enclosures)
    for item in listed:
        enclosure = enclosures[int(item["title"].split()[1]) - 1]
        stream = hardened.call("GET", f"/api/v1/media/{item['id']}/stream", token=student, allow_redirects=False)
        subsonic = requests.get(f"{hardened.url}/rest/stream", allow_redirects=False, timeout=30,
                                params={"id": f"tr-{item['id']}", "apiKey": key, "f": "json"})
        if enclosure == public:
            assert stream.status_code == 302 and stream.headers["Location"] == enclosure
            assert subsonic.status_code == 302 and subsonic.headers["Location"] == enclosure
        else:
            assert_problem(stream, 404, "a loopback, private or link-local address")
            assert "Location" not in subsonic.headers, enclosure
            assert subsonic.json()["subsonic-response"]["error"]["code"] == 70, subsonic.text

    # A feed at such an address is refused before anything connects.
    (site.folder / "feed.xml").write_text(feed())
    for url in ("http://[::ffff:0:7f00:1]:9/feed.xml", "http://[2001::7f00:1]/feed.xml", "http://[::a00:1]/feed.xml",
                f"http://0x7f.1:{port}/feed.xml", f"http://2130706433:{port}/feed.xml",
                f"http://[::7f00:1]:{port}/feed.xml", f"http://%31%32%37.0.0.1:{port}/feed.xml"):
        assert_problem(hardened.call("POST", "/api/v1/podcasts", token=admin, json={"url": url}), 422, "private")
    assert site.requests == [], "the server must not even ask"
    assert_alive(hardened)


def test_3_a_failed_transcode_is_an_error_not_an_empty_stream(hardened, library, tmp_path):
    admin, organizer, student = tokens(hardened)
    track = media_id(hardened, student, "short")
    ok = requests.get(f"{hardened.url}/api/v1/media/{track}/stream?format=mp3&bitrate=64",
                      headers={"Authorization": f"Bearer {student}"})
    assert ok.status_code == 200 and len(ok.content) > 1000
    damaged = tmp_path / "damaged"
    damaged.mkdir()
    shutil.copy(library / "Long" / "short.mp3", damaged / "short.mp3")
    original = (library / "Long" / "short.mp3").read_bytes()
    try:
        (library / "Long" / "short.mp3").write_bytes(b"\0" * 4096)
        time.sleep(1.2)
        response = requests.get(f"{hardened.url}/api/v1/media/{track}/stream?format=mp3&bitrate=64",
                                headers={"Authorization": f"Bearer {student}"})
        assert_problem(response, 422, "cannot be transcoded")
    finally:
        (library / "Long" / "short.mp3").write_bytes(original)
    assert_alive(hardened)


# 4. Open redirect.

def test_4_next_after_login_stays_on_this_site(hardened):
    evil = "/\t/127.0.0.1:18401/pwned.html"
    browser = requests.Session()
    page = browser.get(hardened.url + "/login", params={"next": evil})
    csrf = re.search(r'name="_csrf" value="([^"]+)"', page.text).group(1)
    assert re.search(r'name="next" value="/"', page.text), "the login form carries a safe next"
    response = browser.post(hardened.url + "/login", allow_redirects=False, data={
        "_csrf": csrf, "email": "student@campus.test", "password": "campus-student", "next": evil})
    assert response.status_code == 303 and response.headers["Location"] == "/"
    for bad in ("//evil.example", "/\\evil.example", "/\r\n/evil.example", "https://evil.example"):
        signed_in = browser.get(hardened.url + "/login", params={"next": bad}, allow_redirects=False)
        assert signed_in.headers["Location"] == "/", bad
    assert browser.get(hardened.url + "/login", params={"next": "/compete?x=1"},
                       allow_redirects=False).headers["Location"] == "/compete?x=1"


# 5. One deadline for every fetch.

def test_5_a_dripping_feed_server_is_cut_off_at_the_deadline(data_dir, site):
    server = Campus(data_dir, demo=True, extra=["--fetch-timeout", "2", "--allow-private-fetch"]).start()
    try:
        admin = server.login("admin@campus.test", "campus-admin")
        response = server.call("POST", "/api/v1/podcasts", token=admin, json={"url": f"{site.base}/drip"})
        assert_problem(response, 422, "did not arrive within 2 s")
        assert_alive(server)
    finally:
        server.stop()


# 6. Idle, header and keep-alive timeouts; connections per address.

def connect(campus):
    connection = socket.create_connection(("127.0.0.1", campus.port), timeout=15)
    return connection


def closed_by_server(connection):
    """Waits for the server to close the connection (recv returns b"" or the peer resets it)."""
    try:
        while True:
            data = connection.recv(65536)
            if not data:
                return True
    except ConnectionResetError:
        return True
    except socket.timeout:
        return False


def test_6_silent_and_slow_connections_are_closed(hardened):
    assert closed_by_server(connect(hardened)), "a connection that sends nothing"
    half = connect(hardened)
    half.sendall(b"GET /hea")
    assert closed_by_server(half), "half a request line"
    drip = connect(hardened)
    sent = 0
    try:
        for byte in b"GET /health HTTP/1.1\r\nHost: campus\r\nX-Slow: " + b"x" * 40:
            drip.sendall(bytes([byte]))
            sent += 1
            time.sleep(0.25)
    except (BrokenPipeError, ConnectionResetError):
        pass
    assert sent < 80 and closed_by_server(drip), "a request head sent a byte at a time"
    keep = connect(hardened)
    keep.sendall(b"GET /health HTTP/1.1\r\nHost: campus\r\n\r\n")
    assert keep.recv(65536).startswith(b"HTTP/1.1 200")
    assert closed_by_server(keep), "an idle keep-alive connection"
    assert_alive(hardened)


def test_6_a_slow_listener_keeps_its_stream(hardened):
    """The idle timeout (2 s here) never cuts a response being sent, however slowly it is read: a
    listener reads a megabyte, then pauses longer than the timeout, again and again, so that one of
    the pauses falls after the server handed over the end of the file but before all of it left."""
    admin, organizer, student = tokens(hardened)
    track = media_id(hardened, student, "long")
    response = requests.get(f"{hardened.url}/api/v1/media/{track}/stream",
                            headers={"Authorization": f"Bearer {student}"}, stream=True)
    size = int(response.headers["Content-Length"])
    received = 0
    while chunk := response.raw.read(1 << 20):
        received += len(chunk)
        time.sleep(2.5)
    assert received == size


def test_6_ranges_answered_at_once_keep_the_idle_timeout(hardened):
    """A range answered at once (on the event loop, before Hummingbird) is a request like any other
    to the idle timeout: the connection stays open while it is answered and closes when idle."""
    admin, organizer, student = tokens(hardened)
    track = media_id(hardened, student, "long")
    connection = connect(hardened)
    ask = (f"GET /api/v1/media/{track}/stream HTTP/1.1\r\nHost: campus\r\nAuthorization: Bearer {student}\r\n"
           "Range: bytes=0-9\r\n\r\n").encode()
    for _ in range(3):  # the first through the router, which learns the path; then at once
        connection.sendall(ask)
        answer = b""
        while not (b"\r\n\r\n" in answer and len(answer.split(b"\r\n\r\n", 1)[1]) >= 10):
            answer += connection.recv(65536)
        assert answer.startswith(b"HTTP/1.1 206")
        time.sleep(1)  # shorter than the timeout (2 s): the connection stays
    assert closed_by_server(connection), "an idle connection after ranges answered at once"
    assert_alive(hardened)


def test_6_connections_per_address_are_capped(hardened):
    """40 may be open from one address; of 41 opened at once, one is turned away (which one
    depends on the order the server's threads take them), the rest close when idle."""
    held = [connect(hardened) for _ in range(41)]
    answers = []
    try:
        for connection in held:
            answer = b""
            try:
                while chunk := connection.recv(65536):
                    answer += chunk
            except ConnectionResetError:
                pass
            answers.append(answer)
    finally:
        for connection in held:
            connection.close()
    refused = [answer for answer in answers if answer]
    assert len(refused) == 1, answers
    head, body = refused[0].split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 503") and b"application/problem+json" in head
    assert json.loads(body)["status"] == 503
    assert_alive(hardened)


# 7. Transcodes are bounded per listener and in all.

def test_7_transcodes_are_bounded(hardened):
    admin, organizer, student = tokens(hardened)
    track = media_id(hardened, student, "long")
    url = f"{hardened.url}/api/v1/media/{track}/stream?format=mp3&bitrate=320"

    def start(token):
        return requests.get(url, headers={"Authorization": f"Bearer {token}"}, stream=True, timeout=30)

    streams = [start(student), start(student)]
    assert all(stream.status_code == 200 for stream in streams)
    third = start(student)
    assert_problem(third, 429, "transcoded streams")
    assert third.headers["Retry-After"]
    streams.append(start(organizer))
    assert streams[-1].status_code == 200
    assert_problem(start(admin), 503, "transcoding as many streams as it can")
    for stream in streams:
        stream.close()
    # Slots come back when listeners go.
    for _ in range(50):
        again = start(student)
        if again.status_code == 200:
            again.close()
            break
        time.sleep(0.2)
    else:
        raise AssertionError("the slots did not come back")
    assert_alive(hardened)


# 8. CSV formula injection.

def test_8_csv_cells_cannot_start_formulas(hardened):
    hardened.register("formula@example.org", first='=HYPERLINK("http://evil","x")', last="+SUM(A1)")
    admin, organizer, student = tokens(hardened)
    runner = hardened.login("formula@example.org")
    created = hardened.call("POST", "/api/v1/competitions", token=organizer,
                            json={"name": "Quiz", "metric": "points", "unit": "@goals"}).json()
    me = hardened.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=runner).json()
    hardened.call("PUT", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/result",
                  token=organizer, json={"value": 3})
    response = hardened.call("GET", f"/api/v1/competitions/{created['id']}/results.csv", token=organizer)
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"), newline="")))
    assert rows[0]["name"] == """'=HYPERLINK("http://evil","x") +SUM(A1)"""
    assert rows[0]["unit"] == "'@goals" and rows[0]["result"] == "3"
    for row in rows:
        for value in row.values():
            assert not value or value[0] not in "=+-@\t\r", row


# 9. NUL and other control characters.

def test_9_control_characters_are_refused(hardened):
    admin, organizer, student = tokens(hardened)
    album = next(h for h in hardened.call("GET", "/api/v1/search", token=student, params={"q": "long"}).json()["items"]
                 if h["kind"] == "album")
    comment = hardened.call("POST", "/api/v1/comments", token=student,
                            json={"parentId": int(album["id"]), "body": "\u0000\u202e evil"})
    assert_problem(comment, 422, "body", "control character")
    playlist = hardened.call("POST", "/api/v1/playlists", token=student, json={"name": "a\u0000b", "kind": "track"})
    assert_problem(playlist, 422, "name", "control character")
    lines = hardened.call("POST", "/api/v1/comments", token=student,
                          json={"parentId": int(album["id"]), "body": "Two\nlines\tand a tab."})
    assert lines.status_code == 201, lines.text
    static = requests.get(hardened.url + "/static/campus.js%00.html")
    assert_problem(static, 400, "control character")
    assert "text/html" not in static.headers["Content-Type"]
    assert_alive(hardened)


# 10. The error contract.

def test_10_errors_are_problem_documents_that_say_what_is_wrong(hardened):
    connection = connect(hardened)
    connection.sendall(b"GET /health HTTP/1.1\r\nHost: campus\r\nX-Big: " + b"a" * 90_000 + b"\r\n\r\n")
    answer = b""
    while chunk := connection.recv(65536):
        answer += chunk
    head, body = answer.split(b"\r\n\r\n", 1)
    assert head.startswith(b"HTTP/1.1 431") and b"application/problem+json" in head
    assert "80 KiB" in json.loads(body)["detail"]
    admin, organizer, student = tokens(hardened)
    wrong = hardened.call("POST", "/api/v1/podcasts", token=admin, json={"url": "file:///etc/passwd"})
    assert_problem(wrong, 422, "http:// or https:// URL")
    created = hardened.call("POST", "/api/v1/competitions", token=organizer,
                            json={"name": "Tiny", "metric": "points"}).json()
    me = hardened.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=student).json()
    tiny = hardened.call("PUT", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/result",
                         token=organizer, data='{"value": 1e-400}', headers={"Content-Type": "application/json"})
    body = assert_problem(tiny, 422, "1e-400", "too close to zero")
    assert "not valid JSON" not in body["detail"]
    assert_alive(hardened)
    # A date Foundation's DateFormatter trapped on (found by the fuzzers), as If-Modified-Since.
    track = media_id(hardened, student, "short")
    raw = connect(hardened)
    raw.sendall(f"GET /api/v1/media/{track}/stream HTTP/1.1\r\nHost: campus\r\nAuthorization: Bearer {student}\r\n"
                .encode() + b"If-Modified-Since: 2\xcc\x90\xef\xbf\xbd0-22\r\nConnection: close\r\n\r\n")
    assert raw.recv(65536).startswith(b"HTTP/1.1 200")
    raw.close()
    assert_alive(hardened)


# 11. Imports keep the API's limits.

def test_11_imports_name_the_field_that_breaks_a_limit(tmp_path, data_dir, library):
    base = json.loads((IIS / "151004.json").read_text())
    day = next(iter(base["schedules"]))
    cases = {
        "long.json": (lambda s: s["studentGroupDto"].__setitem__("name", "1" * 100_000),
                      "has 100000 characters; at most 100"),
        "nul.json": (lambda s: s["schedules"][day][0].__setitem__("subject", "Мат\u0000Прог"),
                     "contains a control character (U+0000)"),
        "year.json": (lambda s: s.__setitem__("startDate", "01.01.9999"), "outside the dates Campus works with"),
    }
    for name, (change, message) in cases.items():
        schedule = json.loads(json.dumps(base))
        change(schedule)
        (tmp_path / name).write_text(json.dumps(schedule, ensure_ascii=False))
        result = run_cli("import", "iis", str(tmp_path / name), data_dir=data_dir, check=False)
        assert result.returncode != 0, name
        assert name in result.stderr and message in result.stderr, result.stderr
    # Feeds: a title longer than the catalogue keeps is refused with its field.
    path = tmp_path / "long-title.xml"
    path.write_text(feed(title="T" * 600))
    result = run_cli("podcast", "add", str(path), data_dir=data_dir, check=False)
    assert result.returncode != 0 and "The channel's title has 600 characters; at most 500" in result.stderr
    # The library scan: a file whose tag breaks a limit is reported and left out.
    tagged = tmp_path / "tagged"
    tagged.mkdir()
    make_audio(tagged / "long-title.mp3", 1, title="x" * 600)
    make_audio(tagged / "fine.mp3", 1, title="Fine")
    scanned = run_cli("library", "scan", str(tagged), data_dir=data_dir)
    assert "1 added" in scanned.stdout and "1 not readable" in scanned.stdout
    assert "long-title.mp3: The title tag has 600 characters; at most 500" in scanned.stdout
