"""Listen end to end: the demo library made by scripts/make-demo-media (ffmpeg, espeak-ng),
scanned by `campus library scan` and checked against ffprobe, and the web player in a real
browser: playback goes on while the listener moves to Timetable and Compete pages, and the
queue actions work."""
import json
import socket
import struct
import subprocess
import time
import zlib
from pathlib import Path

import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from conftest import Campus, run_cli

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media") / "demo-media"
    subprocess.run([str(ROOT / "scripts" / "make-demo-media"), str(folder)], check=True)
    return folder


@pytest.fixture
def listen_campus(data_dir, media):
    # The feeds of these tests are on this machine (127.0.0.1): only a server that allows private
    # addresses sends players to their enclosures (docs/LISTEN.md, "One address rule").
    server = Campus(data_dir, demo=True, extra=["--library", str(media), "--allow-private-fetch"]).start()
    yield server
    server.stop()


@pytest.fixture
def browser(tmp_path):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000",
                     "--autoplay-policy=no-user-gesture-required", f"--user-data-dir={tmp_path / 'chromium'}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(5)
    yield driver
    driver.quit()


def ffprobe_tags(path):
    output = subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_format", "-show_streams", str(path)],
        check=True, capture_output=True, text=True).stdout
    probe = json.loads(output)
    tags = {}
    # Ogg keeps its tags on the audio stream, MP3 and MP4 on the container.
    for stream in probe["streams"]:
        if stream.get("codec_type") == "audio":
            tags.update({k.lower(): v for k, v in stream.get("tags", {}).items()})
    tags.update({k.lower(): v for k, v in probe["format"].get("tags", {}).items()})
    return tags, float(probe["format"]["duration"])


def test_cli_scan_reads_what_ffprobe_reads_and_rescans_change_nothing(media, data_dir):
    first = run_cli("library", "scan", str(media), data_dir=data_dir)
    assert "14 added, 0 updated, 0 unchanged, 0 removed" in first.stdout
    again = run_cli("library", "scan", str(media), data_dir=data_dir)
    assert "0 added, 0 updated, 14 unchanged, 0 removed" in again.stdout

    server = Campus(data_dir).start()
    try:
        server.register("listener@example.org")
        token = server.login("listener@example.org")
        checked = 0
        for path in sorted(media.rglob("*")):
            if path.suffix not in (".mp3", ".ogg", ".m4a"):
                continue
            tags, duration = ffprobe_tags(path)
            title = tags["title"]
            hits = server.call("GET", "/api/v1/search", token=token, params={"q": title}).json()["items"]
            item = next(h for h in hits if h["title"] == title and h["kind"] not in ("album", "author"))
            media_item = server.call("GET", f"/api/v1/media/{item['id']}", token=token).json()
            assert abs(media_item["duration"] - duration) < 0.05
            assert media_item["parent"]["title"] == tags["album"]
            if "track" in tags or "tracknumber" in tags:
                assert media_item["number"] == int((tags.get("track") or tags["tracknumber"]).split("/")[0])
            checked += 1
        assert checked == 14
    finally:
        server.stop()


def log_in(browser, site, email, password):
    browser.get(site + "/login")
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(password)
    browser.find_element(By.ID, "password").submit()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "logout")))


def audio(browser):
    return browser.execute_script(
        "const a = document.getElementById('player-audio');"
        "return {time: a.currentTime, paused: a.paused, src: a.currentSrc, marker: a.dataset.marker || null};")


def wait_playing_past(browser, seconds):
    WebDriverWait(browser, 20).until(lambda b: (lambda a: not a["paused"] and a["time"] > seconds)(audio(b)))
    return audio(browser)


def queue_titles(browser):
    # Read in one go: the queue is drawn again after every action.
    return browser.execute_script(
        "return [...document.querySelectorAll('#player-queue .queue-title')].map(e => e.textContent);")


def test_playback_continues_across_pages_and_queue_actions_work(listen_campus, browser):
    site = listen_campus.url
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "first light"}).json()["items"]
    album = next(h for h in hits if h["kind"] == "album")

    log_in(browser, site, "student@campus.test", "campus-student")
    browser.find_element(By.LINK_TEXT, "Listen").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".block")))
    browser.get(site + album["url"])
    assert browser.find_element(By.ID, "parent-title").text == "First Light"
    browser.find_element(By.ID, "play-all").click()
    started = wait_playing_past(browser, 0.5)
    assert "/api/v1/media/" in started["src"]
    assert browser.find_element(By.ID, "player-title").text == "Morning Bell"
    # Mark the audio element: a full page load would make a new one without the mark.
    browser.execute_script("document.getElementById('player-audio').dataset.marker = 'same';")

    # Moving to the timetable and to Compete keeps the same audio element playing.
    browser.find_element(By.LINK_TEXT, "Timetable").click()
    WebDriverWait(browser, 10).until(EC.url_contains("/timetable"))
    WebDriverWait(browser, 10).until(lambda b: "Timetable" in b.title or "My schedule" in b.title)
    on_timetable = audio(browser)
    assert on_timetable["marker"] == "same"
    assert not on_timetable["paused"]
    later = wait_playing_past(browser, on_timetable["time"] + 0.5)
    assert later["marker"] == "same"
    browser.find_element(By.LINK_TEXT, "Compete").click()
    WebDriverWait(browser, 10).until(EC.url_contains("/compete"))
    WebDriverWait(browser, 10).until(lambda b: "Compete" in b.title)
    on_compete = wait_playing_past(browser, later["time"] + 0.3)
    assert on_compete["marker"] == "same"
    browser.back()
    WebDriverWait(browser, 10).until(EC.url_contains("/timetable"))
    assert audio(browser)["marker"] == "same"

    # The big player: the queue, next, remove, reorder, shuffle, repeat, sleep timer.
    browser.find_element(By.ID, "player-expand").click()
    assert queue_titles(browser) == ["Morning Bell", "Library Steps", "Quad at Noon", "Evening Lamps"]
    browser.find_element(By.ID, "player-next").click()
    WebDriverWait(browser, 10).until(
        lambda b: b.find_element(By.ID, "player-title").text == "Library Steps")
    wait_playing_past(browser, 0.2)
    browser.find_element(By.CSS_SELECTOR, "[aria-label='Remove Evening Lamps']").click()
    WebDriverWait(browser, 10).until(lambda b: len(queue_titles(b)) == 3)
    browser.find_element(By.CSS_SELECTOR, "[aria-label='Move Quad at Noon up']").click()
    WebDriverWait(browser, 10).until(
        lambda b: queue_titles(b) == ["Morning Bell", "Quad at Noon", "Library Steps"])
    assert browser.execute_script(
        "return document.querySelector('#player-queue li.current .queue-title').textContent") == "Library Steps"
    browser.find_element(By.ID, "player-repeat").click()
    WebDriverWait(browser, 10).until(
        lambda b: b.find_element(By.ID, "player-repeat").text == "Repeat: all")
    browser.find_element(By.ID, "player-shuffle").click()
    WebDriverWait(browser, 10).until(
        lambda b: b.find_element(By.ID, "player-shuffle").get_attribute("aria-pressed") == "true")
    # Shuffle keeps the current item first.
    assert queue_titles(browser)[0] == "Library Steps"
    Select(browser.find_element(By.ID, "player-sleep")).select_by_value("15")
    assert "Pauses at" in browser.find_element(By.ID, "player-sleep-status").text
    # A manual next leaves a timer of minutes running (seed 001 §3.7)...
    before = browser.find_element(By.ID, "player-title").text
    browser.find_element(By.ID, "player-next").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "player-title").text != before)
    assert "Pauses at" in browser.find_element(By.ID, "player-sleep-status").text
    assert Select(browser.find_element(By.ID, "player-sleep")).first_selected_option.get_attribute("value") == "15"
    # ...and turns off the timer for the end of this item.
    Select(browser.find_element(By.ID, "player-sleep")).select_by_value("end")
    assert browser.find_element(By.ID, "player-sleep-status").text != ""
    browser.find_element(By.ID, "player-next").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "player-sleep-status").text == "")

    # The server has the same queue, for the listener's other devices.
    state = listen_campus.call("GET", "/api/v1/player", token=token).json()
    assert [e["media"]["title"] for e in state["queue"]] == queue_titles(browser)
    assert state["shuffle"] is True and state["repeat"] == "all"
    assert state["queue"][state["current"]]["media"]["title"] == browser.find_element(By.ID, "player-title").text

    # Pausing keeps the position; a new page load shows the player paused there.
    browser.find_element(By.ID, "player-toggle").click()
    WebDriverWait(browser, 10).until(lambda b: audio(b)["paused"])
    time.sleep(0.5)
    paused = listen_campus.call("GET", "/api/v1/player", token=token).json()
    assert paused["playing"] is False
    browser.get(site + "/listen")
    WebDriverWait(browser, 10).until(
        lambda b: b.find_element(By.ID, "player-title").text == state["queue"][state["current"]]["media"]["title"])
    assert audio(browser)["paused"]


def test_spoken_content_has_speed_and_resumes(listen_campus, browser):
    site = listen_campus.url
    log_in(browser, site, "student@campus.test", "campus-student")
    browser.get(site + "/listen/audiobooks")
    browser.find_element(By.LINK_TEXT, "A Short Guide to the Campus").click()
    browser.find_element(By.ID, "play-all").click()
    wait_playing_past(browser, 1.0)
    browser.find_element(By.ID, "player-expand").click()
    speed = browser.find_element(By.ID, "player-speed-label")
    assert speed.is_displayed()
    Select(browser.find_element(By.ID, "player-speed")).select_by_value("1.5")
    assert browser.execute_script("return document.getElementById('player-audio').playbackRate") == 1.5
    browser.find_element(By.ID, "player-toggle").click()
    WebDriverWait(browser, 10).until(lambda b: audio(b)["paused"])
    position = audio(browser)["time"]
    token = listen_campus.login("student@campus.test", "campus-student")
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        state = listen_campus.call("GET", "/api/v1/player", token=token).json()
        if state["queue"][state["current"]]["media"].get("resumePosition"):
            break
        time.sleep(0.2)
    chapter = state["queue"][state["current"]]["media"]
    assert abs(chapter["resumePosition"] - position) < 0.5
    # The chapter's page shows where the listener stopped.
    browser.get(site + chapter["url"])
    assert "stopped at" in browser.find_element(By.ID, f"item-{chapter['id']}").text


def test_streaming_is_ranged_for_outside_clients(listen_campus):
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "morning bell"}).json()["items"]
    track = next(h for h in hits if h["kind"] == "track")
    url = f"{listen_campus.url}/api/v1/media/{track['id']}/stream"
    headers = {"Authorization": f"Bearer {token}"}
    whole = requests.get(url, headers=headers)
    assert whole.status_code == 200 and whole.headers["Accept-Ranges"] == "bytes"
    part = requests.get(url, headers={**headers, "Range": "bytes=100-199"})
    assert part.status_code == 206 and part.content == whole.content[100:200]
    assert requests.get(url, headers={**headers, "If-None-Match": whole.headers["ETag"]}).status_code == 304


def read_answer(connection, buffer):
    """One HTTP/1.1 answer from a raw connection: (status, headers, body, what was read past it)."""
    while b"\r\n\r\n" not in buffer:
        chunk = connection.recv(65536)
        assert chunk, "the connection closed before an answer"
        buffer += chunk
    head, rest = buffer.split(b"\r\n\r\n", 1)
    lines = head.decode("latin-1").split("\r\n")
    headers = {name.lower(): value.strip() for name, value in (line.split(":", 1) for line in lines[1:])}
    length = int(headers.get("content-length", "0"))
    while len(rest) < length:
        chunk = connection.recv(65536)
        assert chunk, "the connection closed inside an answer"
        rest += chunk
    return int(lines[0].split()[1]), headers, rest[:length], rest[length:]


def test_ranges_answered_at_once_keep_their_order_and_connection(listen_campus):
    """A range of a stream the router has seen is answered at once, on the connection's event loop
    (ImmediateAnswerHandler); pipelined behind a request the router answers, it still comes after
    that answer, and `Connection: close` is obeyed."""
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "morning bell"}).json()["items"]
    track = next(h for h in hits if h["kind"] == "track")
    path = f"/api/v1/media/{track['id']}/stream"
    url = listen_campus.url + path
    whole = requests.get(url, headers={"Authorization": f"Bearer {token}"}).content

    def ask(target, extra=""):
        return (f"GET {target} HTTP/1.1\r\nHost: campus\r\nAuthorization: Bearer {token}\r\n{extra}\r\n").encode()

    def immediate_count():
        metrics = requests.get(listen_campus.url + "/metrics").text
        return sum(int(line.rsplit(" ", 1)[1]) for line in metrics.splitlines()
                   if line.startswith("campus_immediate_answers{") and 'http_route="/api/v1/media/{mediaId}/stream"' in line)

    before = immediate_count()
    connection = socket.create_connection(("127.0.0.1", listen_campus.port), timeout=15)
    try:
        # A range (answered at once), a request for the router (the account) and another range
        # (which waits for the router's answer), sent together: the answers come in that order.
        connection.sendall(ask(path, "Range: bytes=0-99\r\n") + ask("/api/v1/me") + ask(path, "Range: bytes=100-299\r\n"))
        buffer = b""
        answers = []
        for _ in range(3):
            status, headers, body, buffer = read_answer(connection, buffer)
            answers.append((status, headers, body))
        assert [status for status, _, _ in answers] == [206, 200, 206]
        assert json.loads(answers[1][2])["email"] == "student@campus.test"
        for (_, headers, body), (first, last) in zip(answers[::2], ((0, 99), (100, 299))):
            assert headers["content-range"] == f"bytes {first}-{last}/{len(whole)}"
            assert body == whole[first:last + 1]
        # Ranges alone on a kept-alive connection, then one that asks to close it.
        for first in (1000, 2000):
            connection.sendall(ask(path, f"Range: bytes={first}-{first + 9}\r\n"))
            status, headers, body, buffer = read_answer(connection, buffer)
            assert status == 206 and body == whole[first:first + 10]
            assert headers["server"] == "Campus" and "date" in headers
        connection.sendall(ask(path, "Range: bytes=5-9\r\nConnection: close\r\n"))
        status, headers, body, buffer = read_answer(connection, buffer)
        assert status == 206 and body == whole[5:10]
        assert buffer == b"" and connection.recv(65536) == b"", "the server closes the connection"
    finally:
        connection.close()
    assert immediate_count() >= before + 3


@pytest.fixture
def feed_site(tmp_path, media):
    """A podcast feed and its episodes on a local web server, as a podcast host would have them."""
    import functools
    import http.server
    import shutil
    import threading

    site = tmp_path / "site"
    site.mkdir()
    episodes = sorted((media / "Podcasts" / "Campus Weekly").glob("*.mp3"))[:2]
    for number, episode in enumerate(episodes, 1):
        shutil.copy(episode, site / f"ep{number}.mp3")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    items = "".join(f"""
    <item>
      <title>Talk {n}</title>
      <guid>talk-{n}</guid>
      <pubDate>Mon, 0{n} Jun 2026 10:00:00 +0000</pubDate>
      <description>Talk number {n}.</description>
      <enclosure url="{base}/ep{n}.mp3" length="{(site / f'ep{n}.mp3').stat().st_size}" type="audio/mpeg"/>
      <itunes:duration>0:10</itunes:duration>
    </item>""" for n in (1, 2))
    (site / "feed.xml").write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
  <channel>
    <title>Union Talks</title>
    <link>{base}/</link>
    <description>Talks at the student union.</description>
    <itunes:author>Student Union</itunes:author>
    <itunes:category text="Education"/>{items}
  </channel>
</rss>""")
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield base, site
    server.shutdown()


def test_podcasts_come_from_feeds_and_campus_feeds_read_in_feedparser(listen_campus, feed_site):
    import feedparser

    base, site = feed_site
    # The feed is on this machine (127.0.0.1), which only an admin's --allow-private-fetch allows.
    added = run_cli("podcast", "add", "--allow-private-fetch", f"{base}/feed.xml", data_dir=listen_campus.data_dir)
    assert "new episodes: 2, updated: 0" in added.stdout
    again = run_cli("podcast", "add", "--allow-private-fetch", f"{base}/feed.xml", data_dir=listen_campus.data_dir)
    assert "new episodes: 0, updated: 2" in again.stdout

    token = listen_campus.login("student@campus.test", "campus-student")
    auth = {"Authorization": f"Bearer {token}"}
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "union talks"}).json()["items"]
    podcast = listen_campus.call("GET", next(h for h in hits if h["kind"] == "podcast")["url"].replace(
        "/podcasts/", "/api/v1/podcasts/"), token=token).json()
    assert [e["title"] for e in podcast["items"]] == ["Talk 2", "Talk 1"]
    # An imported episode plays from the podcast's host.
    episode = podcast["items"][0]
    redirect = requests.get(listen_campus.url + episode["streamUrl"], headers=auth, allow_redirects=False)
    assert redirect.status_code == 302 and redirect.headers["Location"] == f"{base}/ep2.mp3"
    assert requests.get(listen_campus.url + episode["streamUrl"], headers=auth).content == (site / "ep2.mp3").read_bytes()

    # Campus's feeds, read by feedparser with their iTunes fields; their links need no login.
    for name in ("union talks", "campus weekly"):
        hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": name}).json()["items"]
        url = next(h for h in hits if h["kind"] == "podcast")["url"]
        detail = listen_campus.call("GET", url.replace("/podcasts/", "/api/v1/podcasts/"), token=token).json()
        response = requests.get(listen_campus.url + detail["rssUrl"])
        assert response.status_code == 200
        assert response.headers["Content-Type"].startswith("application/rss+xml")
        parsed = feedparser.parse(response.content)
        assert not parsed.bozo, parsed.get("bozo_exception")
        assert parsed.version == "rss20"
        assert parsed.feed.title == detail["title"]
        assert parsed.feed.author == detail["author"]["name"]
        assert len(parsed.entries) == len(detail["items"])
        for entry, item in zip(parsed.entries, detail["items"]):
            assert entry.title == item["title"]
            assert int(entry.itunes_duration) == round(item["duration"])
            enclosure = entry.enclosures[0]
            assert enclosure.type == item["contentType"]
            played = requests.get(enclosure.href)
            assert played.status_code == 200 and len(played.content) > 1000
        if detail.get("images"):
            assert requests.get(parsed.feed.image.href).headers["Content-Type"] == "image/jpeg"
        assert requests.get(listen_campus.url + detail["rssUrl"].split("?")[0] + "?key=nope").status_code == 404


def meta(browser, name):
    """An Open Graph or Twitter card tag's content, None without it."""
    return browser.execute_script(
        "const m = document.querySelector(`meta[property='${arguments[0]}'], meta[name='${arguments[0]}']`);"
        "return m ? m.content : null;", name)


def test_sharing_links_previews_and_public_playlists(listen_campus, browser):
    """Seed 001 §3.8: share from the album page (the system's share sheet, or the link copied),
    a shared album link opened signed out shows a preview with its tags, a playlist opens by
    link only once its owner made it public."""
    site = listen_campus.url
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "first light"}).json()["items"]
    album = next(h for h in hits if h["kind"] == "album")
    tracks = [i["id"] for i in listen_campus.call("GET", f"/api/v1/albums/{album['id']}", token=token).json()["items"]]
    playlist = listen_campus.call("POST", "/api/v1/playlists", token=token,
                                  json={"name": "For Lena", "kind": "track"}).json()
    listen_campus.call("PATCH", f"/api/v1/playlists/{playlist['id']}", token=token, json={"items": tracks[:2]})

    log_in(browser, site, "student@campus.test", "campus-student")
    browser.get(site + album["url"])
    # Where the browser has a share sheet, the button opens it with the page's link …
    browser.execute_script(
        "window.__shared = null;"
        "Object.defineProperty(navigator, 'share', {configurable: true, value: (data) => {"
        "  window.__shared = data; return Promise.resolve(); }});")
    browser.find_element(By.ID, "share").click()
    WebDriverWait(browser, 5).until(lambda b: b.execute_script("return window.__shared"))
    shared = browser.execute_script("return window.__shared")
    assert shared["url"] == site + album["url"]
    assert shared["title"] == "First Light"
    # … elsewhere it copies the link and says so.
    browser.execute_cdp_cmd("Browser.grantPermissions", {
        "origin": site, "permissions": ["clipboardReadWrite", "clipboardSanitizedWrite"]})
    browser.execute_script("Object.defineProperty(navigator, 'share', {configurable: true, value: undefined});")
    browser.find_element(By.ID, "share").click()
    status = browser.find_element(By.CSS_SELECTOR, ".share-status")
    WebDriverWait(browser, 5).until(lambda b: status.text == "Link copied.")
    copied = browser.execute_async_script(
        "const done = arguments[0]; navigator.clipboard.readText().then(done, () => done(null));")
    assert copied == site + album["url"]

    # A playlist is private until its owner makes it public.
    browser.get(site + f"/listen/playlists/{playlist['id']}")
    assert "only you" in browser.find_element(By.ID, "playlist-visibility").text
    assert not browser.find_elements(By.ID, "share")
    browser.find_element(By.ID, "make-public").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "make-private")))
    assert "anyone with the link" in browser.find_element(By.ID, "playlist-visibility").text
    assert browser.find_element(By.ID, "share").get_attribute("data-share-url") == \
        site + f"/listen/playlists/{playlist['id']}"

    # Signed out (a friend who got the links): previews with their tags, no player.
    browser.delete_all_cookies()
    browser.get(site + album["url"])
    assert browser.find_element(By.ID, "preview-title").text == "First Light"
    assert meta(browser, "og:title") == "First Light"
    assert meta(browser, "og:type") == "music.album"
    assert meta(browser, "og:url") == site + album["url"]
    image = meta(browser, "og:image")
    assert image and requests.get(image, timeout=10).headers["content-type"] == "image/jpeg"
    assert meta(browser, "twitter:card") == "summary_large_image"
    assert not browser.find_elements(By.ID, "play-all")
    assert "/login?next=" in browser.find_element(By.ID, "preview-login").get_attribute("href")
    browser.get(site + f"{album['url']}/{tracks[0]}")
    assert meta(browser, "og:audio").endswith(f"/api/v1/media/{tracks[0]}/stream")
    browser.get(site + f"/listen/playlists/{playlist['id']}")
    assert browser.find_element(By.ID, "preview-title").text == "For Lena"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#preview-rows li")) == 2
    assert meta(browser, "og:type") == "music.playlist"
    # Private again: the link leads to the login page.
    listen_campus.call("PATCH", f"/api/v1/playlists/{playlist['id']}", token=token, json={"public": False})
    browser.get(site + f"/listen/playlists/{playlist['id']}")
    assert "/login" in browser.current_url
    assert "For Lena" not in browser.page_source


def test_big_player_marks_skips_and_deep_links(listen_campus, browser):
    """Seed 001 §1.1 and §3.6: a deep link to a chapter offers to play it; a spoken item goes back
    15 and forward 30 seconds; the current item is liked and hidden from the big player, a hidden
    item is skipped and marked in the queue."""
    site = listen_campus.url
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "short guide"}).json()["items"]
    book = next(h for h in hits if h["kind"] == "audiobook")
    chapters = listen_campus.call("GET", f"/api/v1/audiobooks/{book['id']}", token=token).json()["items"]

    log_in(browser, site, "student@campus.test", "campus-student")
    browser.get(site + chapters[0]["url"])
    offer = browser.find_element(By.ID, "play-offer")
    assert browser.find_element(By.ID, "selected-title").text == "Chapter 1"
    assert browser.title.startswith("Chapter 1 · A Short Guide to the Campus")
    offer.find_element(By.ID, "play-selected").click()
    wait_playing_past(browser, 2.5)
    assert browser.find_element(By.ID, "player-title").text == "Chapter 1"
    assert [q for q in queue_titles(browser)] == [c["title"] for c in chapters]

    # Back 15 seconds from about 3 s is the start; forward 30 is past this short chapter's end.
    back = browser.find_element(By.ID, "player-back")
    assert back.is_displayed() and browser.find_element(By.ID, "player-forward").is_displayed()
    back.click()
    assert audio(browser)["time"] < 1.0
    browser.find_element(By.ID, "player-forward").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "player-title").text == "Chapter 2")

    # Like and hide the current item from the big player.
    browser.find_element(By.ID, "player-expand").click()
    like = browser.find_element(By.ID, "player-like")
    like.click()
    WebDriverWait(browser, 10).until(lambda b: like.get_attribute("aria-pressed") == "true")
    liked = listen_campus.call("GET", "/api/v1/likes", token=token).json()
    assert chapters[1]["id"] in [m["id"] for m in liked]
    browser.find_element(By.ID, "player-hide").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "player-title").text == "Chapter 3")
    WebDriverWait(browser, 10).until(lambda b: "Chapter 2 (hidden)" in queue_titles(b))
    media = listen_campus.call("GET", f"/api/v1/media/{chapters[1]['id']}", token=token).json()
    assert media["hidden"] is True and media["liked"] is False

    # A track has no skip buttons.
    music = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "first light"}).json()["items"]
    album = next(h for h in music if h["kind"] == "album")
    browser.get(site + album["url"])
    browser.find_element(By.ID, "play-all").click()
    WebDriverWait(browser, 10).until(lambda b: b.find_element(By.ID, "player-title").text == "Morning Bell")
    assert not browser.find_element(By.ID, "player-back").is_displayed()


def test_report_reaches_the_admins_queue(listen_campus, browser):
    """Seed 001's settings screen: a listener reports an item from its page; an admin finds it in
    the queue (Listen → Settings → Reports and feedback) and resolves it; feedback and about are
    linked from the settings."""
    site = listen_campus.url
    token = listen_campus.login("student@campus.test", "campus-student")
    hits = listen_campus.call("GET", "/api/v1/search", token=token, params={"q": "first light"}).json()["items"]
    album = next(h for h in hits if h["kind"] == "album")
    first = listen_campus.call("GET", f"/api/v1/albums/{album['id']}", token=token).json()["items"][0]

    log_in(browser, site, "student@campus.test", "campus-student")
    browser.get(site + first["url"])
    browser.find_element(By.ID, "report-selected").click()
    assert browser.find_element(By.ID, "report-target").text == "About: Morning Bell"
    Select(browser.find_element(By.ID, "report-reason")).select_by_value("poor_quality")
    browser.find_element(By.ID, "report-note").send_keys("It crackles at the start.")
    browser.find_element(By.ID, "report-send").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash.success")))
    assert "admins will look at it" in browser.find_element(By.CSS_SELECTOR, ".flash.success").text
    assert browser.current_url.endswith(first["url"])
    browser.get(site + "/listen/settings")
    assert [a.text for a in browser.find_elements(By.CSS_SELECTOR, "#settings-links a")] == \
        ["What you like: genres and authors for your recommendations", "Report content", "Feedback", "About Campus"]

    browser.delete_all_cookies()
    log_in(browser, site, "admin@campus.test", "campus-admin")
    browser.get(site + "/listen/settings")
    browser.find_element(By.ID, "report-queue-link").click()
    waiting = browser.find_element(By.ID, "reports-waiting")
    assert "Does not play or sounds broken" in waiting.text
    assert "It crackles at the start." in waiting.text
    assert waiting.find_element(By.LINK_TEXT, "Morning Bell").get_attribute("href").endswith(first["url"])
    waiting.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "no-reports")))
    assert "It crackles" in browser.find_element(By.ID, "reports-resolved").text
    browser.find_element(By.ID, "about-link").click()
    assert "Campus 1.0.0" in browser.find_element(By.ID, "about-version").text


def recommended_titles(campus, token):
    return [item["title"] for item in campus.call("GET", "/api/v1/playlists/recommended", token=token).json()["items"]]


def test_picks_change_the_recommended_playlist(listen_campus, browser):
    """Seed 001's recommendation system: the home feed's banner leads to the picks screen; the
    listener picks a genre and the recommended playlist is made from it."""
    site = listen_campus.url
    listen_campus.register("picker@example.org")
    token = listen_campus.login("picker@example.org")
    assert recommended_titles(listen_campus, token) == [], "nothing liked, played or picked yet"

    log_in(browser, site, "picker@example.org", "correct horse")
    browser.get(site + "/listen")
    banner = browser.find_element(By.CSS_SELECTOR, "section.block-banner")
    assert "Pick genres and authors" in banner.text
    assert "Tell us what you like" in banner.find_element(By.TAG_NAME, "h2").text
    banner.find_element(By.LINK_TEXT, "Pick genres and authors").click()
    assert browser.current_url.endswith("/listen/picks")
    genres = browser.find_element(By.ID, "pick-genres")
    genres.find_element(By.XPATH, ".//label[span='Electronic']").click()
    browser.find_element(By.ID, "save-picks").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash.success")))
    assert browser.current_url.endswith("/listen/playlists/recommended")
    electronic = recommended_titles(listen_campus, token)
    assert electronic, "the genre's items are recommended"
    page_titles = browser.find_element(By.TAG_NAME, "main").text
    assert all(title in page_titles for title in electronic)

    # Picking another genre instead changes the playlist; the picks screen keeps the choice.
    browser.get(site + "/listen/picks")
    assert browser.find_element(By.XPATH, "//label[span='Electronic']/input").is_selected()
    browser.find_element(By.XPATH, "//label[span='Electronic']").click()
    browser.find_element(By.XPATH, "//label[span='Ambient']").click()
    browser.find_element(By.ID, "save-picks").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash.success")))
    ambient = recommended_titles(listen_campus, token)
    assert ambient and not set(ambient) & set(electronic)
    assert "Morning Bell" in browser.find_element(By.TAG_NAME, "main").text


def png_pixel():
    """A 1×1 PNG, for a block's background."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(b"\x00\x33\x66\x99"))
            + chunk(b"IEND", b""))


PIXEL = png_pixel()


def test_admins_add_a_background_block_with_its_image(listen_campus, browser, tmp_path):
    """Seed 001's table 3: an admin adds a background block (image, highlight, description) in the
    Library page; the home feed shows it."""
    site = listen_campus.url
    image = tmp_path / "background.png"
    image.write_bytes(PIXEL)
    log_in(browser, site, "admin@campus.test", "campus-admin")
    browser.get(site + "/listen/library")
    form = browser.find_element(By.ID, "feed-block-form")
    Select(form.find_element(By.NAME, "type")).select_by_value("background")
    form.find_element(By.NAME, "title").send_keys("Evening calm")
    form.find_element(By.NAME, "highlight").send_keys("Popular")
    form.find_element(By.NAME, "description").send_keys("Quiet music for the end of the day")
    form.find_element(By.NAME, "source").send_keys("newest:album")
    form.find_element(By.NAME, "image").send_keys(str(image))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash.success")))
    listed = browser.find_element(By.ID, "feed-blocks").text
    assert "Evening calm" in listed and "POPULAR" in listed.upper()
    browser.get(site + "/listen")
    block = browser.find_element(By.CSS_SELECTOR, "section.block-background")
    assert block.find_element(By.CSS_SELECTOR, ".block-highlight").text.upper() == "POPULAR"
    assert block.find_element(By.CSS_SELECTOR, ".block-description").text == "Quiet music for the end of the day"
    src = block.find_element(By.CSS_SELECTOR, "img.block-image").get_attribute("src")
    assert "/api/v1/library/images/" in src
    assert requests.get(src, timeout=10).content == PIXEL
    browser.execute_script("arguments[0].scrollIntoView()", block)  # the image loads lazily
    WebDriverWait(browser, 10).until(lambda b: b.execute_script(
        "return document.querySelector('section.block-background img.block-image').naturalWidth") == 1)

    # A picture for a genre, from the same page: the genres block shows it instead of a cover.
    token = listen_campus.login("admin@campus.test", "campus-admin")
    ambient = next(g for g in listen_campus.call("GET", "/api/v1/genres", token=token).json()
                   if g["name"] == "Ambient")
    assert "/api/v1/covers/" in ambient["images"]["medium"]
    browser.get(site + "/listen/library")
    form = browser.find_element(By.ID, "picture-form")
    form.find_element(By.NAME, "owner").send_keys(f"genre:{ambient['id']}")
    form.find_element(By.NAME, "image").send_keys(str(image))
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".flash.success")))
    ambient = next(g for g in listen_campus.call("GET", "/api/v1/genres", token=token).json()
                   if g["name"] == "Ambient")
    assert "/api/v1/library/images/" in ambient["images"]["medium"]
    browser.get(site + "/listen")
    tile = browser.find_element(By.XPATH, "//section[@data-type='genres']//li[.//span[text()='Ambient']]")
    assert "/api/v1/library/images/" in tile.find_element(By.TAG_NAME, "img").get_attribute("src")
