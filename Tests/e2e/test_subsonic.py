"""The Subsonic / OpenSubsonic API under /rest/ (issue 17), driven by py-opensonic, an outside
client, against the real binary with the demo library: each way of signing in, browsing,
search, streaming with and without transcoding (ffprobe reads what arrives), cover art, likes
and ratings, playlists, the play queue and scrobbles — each then seen in Campus's own API — and
every method in XML and in JSON, with Subsonic's error codes for what is wrong."""
import hashlib
import json
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import libopensonic
import pytest
import requests
from libopensonic import errors

from conftest import Campus

ROOT = Path(__file__).resolve().parents[2]
NS = "{http://subsonic.org/restapi}"


@pytest.fixture(scope="module")
def media(tmp_path_factory):
    folder = tmp_path_factory.mktemp("media") / "demo-media"
    subprocess.run([str(ROOT / "scripts" / "make-demo-media"), str(folder)], check=True)
    return folder


@pytest.fixture(scope="module")
def server(tmp_path_factory, media):
    server = Campus(tmp_path_factory.mktemp("data"), demo=True, extra=["--library", str(media)]).start()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def student(server):
    token = server.login("student@campus.test", "campus-student")
    password = server.call("POST", "/api/v1/me/app-passwords", token, json={"name": "DSub"})
    assert password.status_code == 201, password.text
    key = server.call("POST", "/api/v1/me/api-keys", token, json={"name": "Feishin"})
    assert key.status_code == 201, key.text
    return {"token": token, "password": password.json()["password"], "key": key.json()["key"],
            "key_id": key.json()["id"], "password_id": password.json()["id"]}


def base_and_port(server):
    host, port = server.url.rsplit(":", 1)
    return host, int(port)


def connect(server, **kwargs):
    host, port = base_and_port(server)
    return libopensonic.Connection(host, port=port, app_name="campus-e2e", **kwargs)


@pytest.fixture(scope="module")
def conn(server, student):
    connection = connect(server, username="student@campus.test", password=student["password"])
    yield connection
    connection.cleanup()


def rest(server, method, params=None, fmt="json", auth=None, student=None, post=False):
    params = dict(params or {})
    params.update(auth if auth is not None else {"apiKey": student["key"]})
    params.update({"c": "campus-e2e", "v": "1.16.1", "f": fmt})
    url = f"{server.url}/rest/{method}"
    response = requests.post(url, data=params, timeout=30) if post else requests.get(url, params=params, timeout=30)
    return response


def body(response, fmt="json"):
    if fmt == "json":
        return response.json()["subsonic-response"]
    root = ET.fromstring(response.content)
    assert root.tag == f"{NS}subsonic-response"
    return root


def test_each_way_of_signing_in(server, student):
    for kwargs in ({"api_key": student["key"]},
                   {"username": "student@campus.test", "password": student["password"]},
                   {"username": "student@campus.test", "password": student["password"], "legacy_auth": True}):
        connection = connect(server, **kwargs)
        try:
            assert connection.ping()
        finally:
            connection.cleanup()
    # The account's own password never signs a player in.
    connection = connect(server, username="student@campus.test", password="campus-student")
    try:
        with pytest.raises(errors.CredentialError):
            connection.ping()
    finally:
        connection.cleanup()


def test_wrong_credentials_and_missing_parameters_get_subsonic_codes(media, tmp_path):
    # A server of its own: the failures here make its players' sign-ins from this address wait.
    server = Campus(tmp_path / "data", demo=True, extra=["--library", str(media)]).start()
    try:
        token = server.login("student@campus.test", "campus-student")
        password = server.call("POST", "/api/v1/me/app-passwords", token, json={"name": "DSub"}).json()["password"]
        key = server.call("POST", "/api/v1/me/api-keys", token, json={"name": "Feishin"}).json()["key"]

        def code(params, auth, fmt="json"):
            response = rest(server, "getAlbumList2", params, fmt=fmt, auth=auth)
            assert response.status_code == 200
            if fmt == "json":
                answer = body(response)
                assert answer["status"] == "failed"
                return answer["error"]["code"]
            root = body(response, "xml")
            assert root.get("status") == "failed"
            return int(root.find(f"{NS}error").get("code"))

        def too_many(auth):
            answer = body(rest(server, "getAlbumList2", {"type": "newest"}, auth=auth))
            return answer["error"]["code"] == 40 and "Too many" in answer["error"]["message"]

        salt = "c19b2d"
        good = hashlib.md5((password + salt).encode()).hexdigest()
        answer = body(rest(server, "getAlbumList2", {"type": "newest"},
                           auth={"u": "student@campus.test", "t": good, "s": salt}))
        assert answer["status"] == "ok"
        for fmt in ("json", "xml"):
            assert code({}, {"apiKey": key}, fmt) == 10  # type is missing
            assert code({"type": "newest"}, {"u": "student@campus.test"}, fmt) == 10
            assert code({"type": "newest"}, {"apiKey": key, "u": "student@campus.test"}, fmt) == 43
        # Unknown ids are "not found".
        assert body(rest(server, "getAlbum", {"id": "al-999999"}, auth={"apiKey": key}))["error"]["code"] == 70
        assert body(rest(server, "getAlbum", {"id": "garbage"}, auth={"apiKey": key}))["error"]["code"] == 70
        # Three failed app-password sign-ins (the throttle allows five per kind and address)…
        assert code({"type": "newest"}, {"u": "student@campus.test", "t": "0" * 32, "s": salt}) == 40
        assert code({"type": "newest"}, {"u": "nobody@campus.test", "p": "whatever"}, "xml") == 40
        # (an account without an app password cannot use token sign-in)
        organizer = hashlib.md5(("campus-organizer" + salt).encode()).hexdigest()
        assert code({"type": "newest"}, {"u": "organizer@campus.test", "t": organizer, "s": salt}, "xml") == 41
        # …five unknown API keys (one sent again is answered from memory and counts once)…
        for n in range(5):
            assert code({"type": "newest"}, {"apiKey": f"not-a-key-{n}"}) == 44
            assert code({"type": "newest"}, {"apiKey": "not-a-key-0"}) == 44
        # …and API keys from this address wait, but nothing else does: the sign-in page, app passwords.
        assert too_many({"apiKey": "not-a-key-5"})
        server.login("student@campus.test", "campus-student")
        assert body(rest(server, "getAlbumList2", {"type": "newest"},
                         auth={"u": "student@campus.test", "p": password}))["status"] == "ok"
        # Two more wrong app passwords, and app passwords wait too; the sign-in page still does not.
        assert code({"type": "newest"}, {"u": "student@campus.test", "p": "wrong"}) == 40
        assert code({"type": "newest"}, {"u": "student@campus.test", "p": "wrong again"}) == 40
        assert too_many({"u": "organizer@campus.test", "p": "a guess"})
        server.login("student@campus.test", "campus-student")
    finally:
        server.stop()


def test_browse_search_and_lists(conn, server, student):
    artists = conn.get_artists()
    names = [artist.name for index in artists.index for artist in index.artist]
    assert "Campus Ensemble" in names
    ensemble = next(a for index in artists.index for a in index.artist if a.name == "Campus Ensemble")
    artist = conn.get_artist(ensemble.id)
    album_ref = next(album for album in artist.album if album.name == "First Light")
    album = conn.get_album(album_ref.id)
    assert [song.title for song in album.song] == ["Morning Bell", "Library Steps", "Quad at Noon", "Evening Lamps"]
    assert [song.track for song in album.song] == [1, 2, 3, 4]
    song = conn.get_song(album.song[0].id)
    assert song.title == "Morning Bell" and song.album_id == album.id and song.suffix == "mp3"
    directory = conn.get_music_directory(album.id)
    assert len(directory.child) == 4
    found = conn.search3("morning")
    assert [s.title for s in found.song] == ["Morning Bell"]
    everything = conn.search3("", song_count=500)
    assert len(everything.song) >= 10
    newest = conn.get_album_list2("alphabeticalByName", size=50)
    assert [a.name for a in newest] == sorted([a.name for a in newest], key=str.lower)
    assert {"First Light", "Night Shift"} <= {a.name for a in newest}
    assert len(conn.get_random_songs(size=3)) == 3
    genres = conn.get_genres()
    assert all(g.song_count > 0 for g in genres)
    # (py-opensonic 10 reads musicFolders as a list, unlike the API and its other servers.)
    folders = body(rest(server, "getMusicFolders", student=student))["musicFolders"]["musicFolder"]
    assert [f["name"] for f in folders][:1] == ["Music"]


def test_stream_original_transcoded_and_cover_art(conn, server, student, tmp_path):
    album = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.name == "Night Shift")
    song = conn.get_album(album.id).song[0]
    assert song.suffix == "ogg"
    original = rest(server, "stream", {"id": song.id}, student=student)
    assert original.status_code == 200 and original.headers["Content-Type"].startswith("audio/ogg")
    ranged = requests.get(f"{server.url}/rest/stream", params={"id": song.id, "apiKey": student["key"]},
                          headers={"Range": "bytes=0-99"}, timeout=30)
    assert ranged.status_code == 206 and len(ranged.content) == 100
    transcoded = rest(server, "stream", {"id": song.id, "format": "mp3", "maxBitRate": 64}, student=student)
    assert transcoded.status_code == 200 and transcoded.headers["Content-Type"] == "audio/mpeg"
    for name, data, codec in (("original.ogg", original.content, "vorbis"), ("low.mp3", transcoded.content, "mp3")):
        path = tmp_path / name
        path.write_bytes(data)
        probe = json.loads(subprocess.run(
            ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(path)],
            check=True, capture_output=True, text=True).stdout)
        assert probe["streams"][0]["codec_name"] == codec
    assert int(probe["streams"][0]["bit_rate"]) <= 80_000
    # A spoken item from a time offset.
    book = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.name.startswith("A Short"))
    chapter = conn.get_album(book.id).song[0]
    later = rest(server, "stream", {"id": chapter.id, "timeOffset": 2}, student=student)
    whole = rest(server, "stream", {"id": chapter.id, "format": "mp3"}, student=student)
    assert later.status_code == 200 and 0 < len(later.content) < len(whole.content)
    cover = conn.get_cover_art(album.id, size=100)
    data = cover.content if hasattr(cover, "content") else None
    raw = rest(server, "getCoverArt", {"id": album.id, "size": 100}, student=student)
    assert raw.headers["Content-Type"] == "image/jpeg" and raw.content[:2] == b"\xff\xd8"
    path = tmp_path / "cover.jpg"
    path.write_bytes(raw.content)
    probe = json.loads(subprocess.run(
        ["ffprobe", "-v", "error", "-print_format", "json", "-show_streams", str(path)],
        check=True, capture_output=True, text=True).stdout)
    assert max(probe["streams"][0]["width"], probe["streams"][0]["height"]) <= 300
    del data


def test_star_rate_scrobble_and_the_play_queue_are_campus_own(conn, server, student):
    album = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.name == "First Light")
    songs = conn.get_album(album.id).song
    conn.star(sids=[songs[1].id])
    conn.set_rating(album.id, 4)
    likes = server.call("GET", "/api/v1/likes", student["token"]).json()
    assert songs[1].title in [item["title"] for item in likes]
    numeric = int(album.id.split("-")[1])
    detail = server.call("GET", f"/api/v1/albums/{numeric}", student["token"]).json()
    assert detail["rating"]["mine"] == 4
    starred = conn.get_starred2()
    assert [s.title for s in starred.song] == [songs[1].title]
    conn.unstar(sids=[songs[1].id])
    assert not conn.get_starred2().song

    conn.scrobble(songs[2].id)
    history = server.call("GET", "/api/v1/history", student["token"]).json()
    assert history[0]["media"]["title"] == songs[2].title

    conn.save_play_queue([s.id for s in songs], current=songs[1].id, position=42_000)
    player = server.call("GET", "/api/v1/player", student["token"]).json()
    assert [entry["media"]["title"] for entry in player["queue"]] == [s.title for s in songs]
    assert player["current"] == 1 and player["position"] == 42 and player["playing"] is False
    queue = conn.get_play_queue()
    assert queue.current == songs[1].id and queue.position == 42_000 and len(queue.entry) == 4

    conn.create_bookmark(songs[0].id, 5_000)
    assert [(b.entry.id, b.position) for b in conn.get_bookmarks()] == [(songs[0].id, 5_000)]
    conn.delete_bookmark(songs[0].id)
    assert not conn.get_bookmarks()


def test_playlists_round_trip_and_stay_private(conn, server, student):
    album = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.name == "First Light")
    songs = conn.get_album(album.id).song
    conn.create_playlist(name="Road trip", song_ids=[songs[0].id, songs[1].id])
    playlist = next(p for p in conn.get_playlists() if p.name == "Road trip")
    assert playlist.song_count == 2
    conn.update_playlist(playlist.id, name="Road trip 2", song_ids_to_add=[songs[3].id], song_indices_to_remove=[0])
    fetched = conn.get_playlist(playlist.id)
    assert fetched.name == "Road trip 2" and [e.title for e in fetched.entry] == [songs[1].title, songs[3].title]
    native = server.call("GET", "/api/v1/playlists", student["token"]).json()
    assert "Road trip 2" in json.dumps(native)
    # Another user's playlist: not authorized.
    other = server.login("admin@campus.test", "campus-admin")
    key = server.call("POST", "/api/v1/me/api-keys", other, json={"name": "phone"}).json()["key"]
    answer = body(rest(server, "getPlaylist", {"id": playlist.id}, auth={"apiKey": key}))
    assert answer["status"] == "failed" and answer["error"]["code"] == 50
    answer = body(rest(server, "deletePlaylist", {"id": playlist.id}, auth={"apiKey": key}))
    assert answer["error"]["code"] == 50
    conn.delete_playlist(playlist.id)
    assert "Road trip 2" not in [p.name for p in conn.get_playlists()]


def test_every_method_answers_in_xml_and_json(conn, server, student):
    album = next(a for a in conn.get_album_list2("alphabeticalByName", size=50) if a.name == "First Light")
    song = conn.get_album(album.id).song[0]
    calls = [
        ("ping", {}), ("getLicense", {}), ("getOpenSubsonicExtensions", {}), ("getMusicFolders", {}),
        ("getIndexes", {}), ("getArtists", {}), ("getArtist", {"id": album.artist_id}),
        ("getMusicDirectory", {"id": album.id}), ("getAlbum", {"id": album.id}), ("getSong", {"id": song.id}),
        ("getGenres", {}), ("getArtistInfo2", {"id": album.artist_id}), ("getAlbumInfo2", {"id": album.id}),
        ("getUser", {}),
        *[("getAlbumList", {"type": t}) for t in ("random", "newest", "frequent", "recent", "starred",
                                                  "alphabeticalByName", "alphabeticalByArtist")],
        ("getAlbumList2", {"type": "byYear", "fromYear": 2030, "toYear": 1990}),
        ("getAlbumList2", {"type": "byGenre", "genre": song.genre or "Ambient"}),
        ("getRandomSongs", {"size": 2}), ("getSongsByGenre", {"genre": song.genre or "Ambient"}),
        ("getStarred", {}), ("getStarred2", {}), ("getNowPlaying", {}), ("search2", {"query": "bell"}),
        ("search3", {"query": "bell"}), ("getPlaylists", {}), ("getPlayQueue", {}), ("getBookmarks", {}),
        ("getPodcasts", {}), ("getNewestPodcasts", {}), ("getInternetRadioStations", {}),
        ("scrobble", {"id": song.id, "submission": "false"}),
    ]
    for method, params in calls:
        for fmt in ("json", "xml"):
            for post in (False, True):
                response = rest(server, method + (".view" if post else ""), params, fmt=fmt, student=student,
                                post=post)
                assert response.status_code == 200, (method, fmt)
                answer = body(response, fmt)
                status = answer["status"] if fmt == "json" else answer.get("status")
                assert status == "ok", (method, fmt, response.text[:300])
    # The methods that change something, in XML (py-opensonic sends them as JSON above).
    created = body(rest(server, "createPlaylist", {"name": "XML list", "songId": song.id}, fmt="xml", student=student),
                   "xml")
    playlist_id = created.find(f"{NS}playlist").get("id")
    for method, params in [
        ("star", {"id": song.id, "albumId": album.id}), ("unstar", {"id": song.id, "albumId": album.id}),
        ("setRating", {"id": album.id, "rating": 3}), ("setRating", {"id": album.id, "rating": 0}),
        ("createBookmark", {"id": song.id, "position": 1000}), ("deleteBookmark", {"id": song.id}),
        ("savePlayQueue", {"id": song.id, "current": song.id, "position": 0}),
        ("updatePlaylist", {"playlistId": playlist_id, "name": "XML list 2"}), ("deletePlaylist", {"id": playlist_id}),
        ("scrobble", {"id": song.id, "submission": "false"}),
    ]:
        answer = body(rest(server, method, params, fmt="xml", student=student, post=True), "xml")
        assert answer.get("status") == "ok", (method, ET.tostring(answer)[:300])
    stream = rest(server, "download", {"id": song.id}, student=student)
    assert stream.status_code == 200 and "attachment" in stream.headers["Content-Disposition"]
    playing = body(rest(server, "getNowPlaying", student=student))["nowPlaying"]["entry"]
    assert [entry["title"] for entry in playing] == [song.title]
    podcasts = conn.get_podcasts()
    assert podcasts and podcasts[0].episode
    assert conn.get_newest_podcasts(count=2).__len__() == 2
    unknown = requests.get(f"{server.url}/rest/noSuchMethod", params={"apiKey": student["key"]}, timeout=30)
    assert unknown.status_code == 404 and b'code="70"' in unknown.content


def test_revoked_credentials_stop_at_once(server, student):
    token = student["token"]
    key = server.call("POST", "/api/v1/me/api-keys", token, json={"name": "old tablet"}).json()
    assert body(rest(server, "ping", auth={"apiKey": key["key"]}))["status"] == "ok"
    listed = server.call("GET", "/api/v1/me/api-keys", token).json()["items"]
    assert key["id"] in [item["id"] for item in listed] and "key" not in json.dumps(listed)
    assert server.call("DELETE", f"/api/v1/me/api-keys/{key['id']}", token).status_code == 204
    assert body(rest(server, "ping", auth={"apiKey": key["key"]}))["error"]["code"] == 44
    assert server.call("DELETE", f"/api/v1/me/api-keys/{key['id']}", token).status_code == 404
    bad = server.call("POST", "/api/v1/me/app-passwords", token, json={"name": ""})
    assert bad.status_code == 422


@pytest.mark.parametrize("width", [390, 1280])
def test_the_profile_makes_and_revokes_an_app_password(server, browser, width):
    from selenium.webdriver.common.by import By

    from selenium.common.exceptions import StaleElementReferenceException

    from browsing import log_in, tap, wait_for

    browser.set_window_size(width, 900)
    log_in(browser, server, "organizer@campus.test", "campus-organizer")
    browser.get(server.url + "/profile")
    tap(browser, browser.find_element(By.ID, "players-link"))
    assert server.url in browser.find_element(By.ID, "server-url").text
    form = browser.find_element(By.ID, "new-app-password")
    form.find_element(By.NAME, "name").send_keys(f"Symfonium {width}")
    tap(browser, form.find_element(By.TAG_NAME, "button"))
    secret = browser.find_element(By.ID, "secret").text
    connection = connect(server, username="organizer@campus.test", password=secret)
    try:
        assert connection.ping()
        row = next(li for li in browser.find_elements(By.CSS_SELECTOR, "#app-passwords li")
                   if f"Symfonium {width}" in li.text)
        tap(browser, row.find_element(By.TAG_NAME, "button"))
        browser.switch_to.alert.accept()

        def revoked():
            # The form's answer replaces the page: the list read meanwhile may be the old page's.
            try:
                return f"Symfonium {width}" not in browser.find_element(By.ID, "app-passwords").text
            except StaleElementReferenceException:
                return False
        wait_for(revoked, what="the revoked app password to leave the list")
        with pytest.raises(errors.SonicError):
            connection.ping()
    finally:
        connection.cleanup()
    browser.save_screenshot(f"/tmp/player-access-{width}.png")
