"""Several instances for real (issue 38): one PostgreSQL database, three `campus serve` processes
whose own data directories the others cannot see (each in a mount namespace of its own, as on
separate machines), one shared media directory, and nginx round-robin in front."""
import json
import shutil
import socket
import subprocess
import threading
import time

import pytest
import requests

from conftest import Campus, make_postgres_database, run_cli, POSTGRES_URL
from test_radio import PASSWORD, source, wait_on_air

ADMIN = ("admin@example.org", "secret-admin-38")


def can_hide_directories():
    """Whether this machine lets a process have a mount namespace of its own (root, or user
    namespaces)."""
    if shutil.which("unshare") is None:
        return False
    result = subprocess.run(["unshare", "--mount", "--propagation", "private", "true"], capture_output=True)
    return result.returncode == 0


def hidden_from(directories):
    """A command prefix that runs the server with each of `directories` covered by an empty
    tmpfs: what another machine's data directory is to it."""
    script = "".join(f"mount -t tmpfs tmpfs '{d}' && " for d in directories) + 'exec "$@"'
    return ["unshare", "--mount", "--propagation", "private", "sh", "-c", script, "campus"]


def psql(database, query):
    result = subprocess.run(["psql", database, "-AtXqc", query], capture_output=True, text=True, check=True)
    return [line.split("|") for line in result.stdout.splitlines() if line]


class Nginx:
    """nginx round-robin in front of the instances, as an IT department runs it; or, with `http`,
    whatever that function of the port makes of nginx's `http` block, and `top` at the top level
    (test_deploy.py: deploy/)."""

    def __init__(self, folder, ports=(), http=None, top=""):
        self.folder = folder
        folder.mkdir(parents=True, exist_ok=True)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        upstreams = "".join(f"server 127.0.0.1:{port} max_fails=1 fail_timeout=30s;\n" for port in ports)
        servers = http(self.port) if http else f"""
    upstream campus {{ {upstreams} }}
    server {{
        listen 127.0.0.1:{self.port};
        location / {{
            proxy_pass http://campus;
            proxy_http_version 1.1;
            proxy_buffering off;
            proxy_read_timeout 1h;
            proxy_next_upstream error timeout;
        }}
    }}"""
        (folder / "nginx.conf").write_text(f"""{top}
user root;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 256; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
{servers}
}}
""")
        self.process = subprocess.Popen(["nginx", "-c", str(folder / "nginx.conf"), "-g", "daemon off;"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)
        raise AssertionError("nginx did not start: " + (folder / "error.log").read_text())

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    if not POSTGRES_URL:
        pytest.skip("CAMPUS_TEST_POSTGRES_URL is not set (scripts/test starts PostgreSQL)")
    if shutil.which("nginx") is None:
        pytest.skip("nginx is not installed (scripts/install-test-tools installs it)")
    if not can_hide_directories():
        pytest.skip("this machine gives no process a mount namespace of its own (unshare --mount)")
    database = make_postgres_database()
    root = tmp_path_factory.mktemp("instances")
    media = root / "media"
    data = [root / f"data{number}" for number in (1, 2, 3)]
    for folder in data:
        folder.mkdir()
    run_cli("user", "create", "--email", ADMIN[0], "--admin", "--password", ADMIN[1], database=database,
            data_dir=data[0])
    run_cli("station", "add", "Campus Live", "--mount", "live", "--source-password", PASSWORD,
            database=database, data_dir=data[0])
    servers = []
    try:
        for folder in data:
            others = [other for other in data if other != folder]
            servers.append(Campus(folder, database=database, extra=["--media-dir", str(media)],
                                  prefix=hidden_from(others)).start())
        nginx = Nginx(root / "nginx", [server.port for server in servers])
        yield database, media, data, servers, nginx
        nginx.stop()
    finally:
        for server in servers:
            server.stop()


def test_a_media_directory_that_is_not_the_shared_one_stops_the_start(cluster, tmp_path):
    database, _, _, _, _ = cluster
    stray = Campus(tmp_path / "data", database=database, extra=["--media-dir", str(tmp_path / "elsewhere")])
    with pytest.raises(AssertionError) as failed:
        stray.start(timeout=30)
    assert "is not the one this database's other instances share" in str(failed.value)
    assert "--media-dir" in str(failed.value)


def tone_with_cover(path):
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y",
                    "-f", "lavfi", "-i", "sine=frequency=660:duration=4",
                    "-f", "lavfi", "-i", "color=c=teal:s=120x120:d=1",
                    "-map", "0:a", "-map", "1:v", "-c:a", "libmp3lame", "-b:a", "128k",
                    "-c:v", "mjpeg", "-frames:v", "1", "-disposition:v", "attached_pic",
                    "-id3v2_version", "3", "-metadata", "title=Shared tone", str(path)], check=True)
    return path.read_bytes()


def test_files_written_by_one_instance_are_served_by_the_others(cluster, tmp_path):
    database, media, data, servers, nginx = cluster
    first, second, third = servers
    token = first.login(*ADMIN)
    original = tone_with_cover(tmp_path / "tone.mp3")
    uploaded = first.call("POST", "/api/v1/library/uploads", token=token, data=original,
                          params={"name": "tone.mp3", "folder": "Radio/Shared Programme"},
                          headers={"Content-Type": "application/octet-stream"})
    assert uploaded.status_code in (200, 201), uploaded.text
    item = uploaded.json()
    # In the shared media directory, not in the first instance's own data directory.
    assert (media / "uploads" / "Radio" / "Shared Programme" / "tone.mp3").read_bytes() == original
    assert not (data[0] / "uploads").exists()
    for server in (second, third):
        streamed = server.call("GET", f"/api/v1/media/{item['id']}/stream", token=server.login(*ADMIN))
        assert streamed.status_code == 200, streamed.text
        assert streamed.content == original
    cover = second.call("GET", f"/api/v1/covers/{item['parent']['id']}/medium", token=second.login(*ADMIN))
    assert cover.status_code == 200, cover.text
    assert cover.headers["content-type"] == "image/jpeg" and cover.content[:2] == b"\xff\xd8"

    # A broadcast recorded by the first instance plays on the third.
    programme = item["parent"]["id"]
    run_cli("station", "add", "Campus Recorded", "--mount", "recorded", "--source-password", PASSWORD,
            "--programme", str(programme), "--record", "yes", database=database, data_dir=data[0])
    before = {episode["id"] for episode in episodes(third, programme)}
    broadcast = source(first, "recorded", seconds=3)
    wait_on_air(first, "recorded")
    _, errors = broadcast.communicate(timeout=30)
    assert broadcast.returncode == 0, errors
    recording = None
    deadline = time.monotonic() + 15
    while recording is None and time.monotonic() < deadline:
        recording = next((episode for episode in episodes(third, programme)
                          if episode["id"] not in before and episode["duration"] > 0), None)
        time.sleep(0.2)
    assert recording, first.read_log()
    played = third.call("GET", f"/api/v1/media/{recording['id']}/stream", token=third.login(*ADMIN))
    assert played.status_code == 200 and len(played.content) > 16_000
    assert str(media / "recordings") in psql(database, f"SELECT path FROM media WHERE id = {recording['id']}")[0][0]


def episodes(server, programme):
    answer = server.call("GET", f"/api/v1/programmes/{programme}", token=server.login(*ADMIN))
    assert answer.status_code == 200, answer.text
    body = answer.json()
    return body.get("items") or body.get("episodes") or body.get("children") or []


def test_a_ranking_change_made_on_one_instance_reaches_a_live_ranking_on_another(cluster):
    _, _, _, servers, _ = cluster
    first, _, third = servers
    first.register("organizer38@example.org", organizer=True)
    runner = first.register("runner38@example.org")
    organizer = first.login("organizer38@example.org")
    competition = first.call("POST", "/api/v1/competitions", token=organizer,
                             json={"name": "Across instances", "metric": "time"}).json()["id"]
    token = third.login("runner38@example.org")
    assert third.call("POST", f"/api/v1/competitions/{competition}/participants/me", token=token).status_code == 201
    events = []
    with requests.get(f"{third.url}/api/v1/competitions/{competition}/ranking/live", stream=True, timeout=10,
                      headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200
        lines = stream.iter_lines()
        entered = False
        deadline = time.monotonic() + 10
        for line in lines:
            if line.startswith(b"data:"):
                events.append(json.loads(line[5:]))
                if not entered:
                    answer = first.call("PUT", f"/api/v1/competitions/{competition}/participants/{runner['id']}"
                                        "/result", token=organizer, json={"value": 754})
                    assert answer.status_code == 200, answer.text
                    entered = True
                elif any(item.get("result") == 754 for item in events[-1]["items"]):
                    break
            assert time.monotonic() < deadline, events
    assert events[-1]["items"][0]["result"] == 754


class Listener(threading.Thread):
    """A raw listener of a station that keeps what it hears, and says whether its stream ended."""

    def __init__(self, port, mount):
        super().__init__(daemon=True)
        self.port, self.mount = port, mount
        self.received = b""
        self.ended = False
        self.stop = False

    def run(self):
        with socket.create_connection(("127.0.0.1", self.port), timeout=10) as connection:
            connection.sendall(f"GET /radio/{self.mount} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode())
            while not self.stop:
                try:
                    chunk = connection.recv(65536)
                except socket.timeout:
                    continue
                if not chunk:
                    self.ended = True
                    return
                self.received += chunk

    def audio(self, path):
        head, _, body = self.received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        path.write_bytes(body)
        return path


def decoded_seconds(path):
    """How much audio ffmpeg decodes from the file (it fails on what is not audio)."""
    result = subprocess.run(["ffmpeg", "-hide_banner", "-v", "error", "-i", str(path), "-f", "s16le", "-ac", "1",
                             "-ar", "8000", "-"], capture_output=True, check=True)
    return len(result.stdout) / 16000


def test_the_loss_of_the_sources_instance_keeps_listeners_and_takes_the_source_back_at_once(cluster, tmp_path):
    database, _, _, servers, nginx = cluster
    first, second, third = servers
    broadcast = source(first, "live", seconds=120)
    reconnected = None
    try:
        wait_on_air(first, "live")
        since = wait_on_air(third, "live")["onAirSince"]
        listeners = [Listener(second.port, "live"), Listener(third.port, "live")]
        for listener in listeners:
            listener.start()
        time.sleep(3.5)
        lost_at = time.monotonic()
        first.kill()
        broadcast.kill()
        # The source's client reconnects to another instance and is taken at once.
        reconnected = source(second, "live", seconds=120)
        deadline = time.monotonic() + 4
        live = None
        while time.monotonic() < deadline:
            live = third.call("GET", "/api/v1/stations/live").json()
            if live["onAir"] and live["live"] and live["onAirSince"] != since:
                break
            time.sleep(0.1)
        assert live["onAir"] and live["live"] and live["onAirSince"] != since, live
        assert reconnected.poll() is None, reconnected.stderr.read()
        accepted_within = time.monotonic() - lost_at
        # A new listener through nginx (which finds the lost instance refusing) hears it too.
        through_nginx = subprocess.run(["curl", "-s", "--max-time", "3", "-o", str(tmp_path / "nginx.mp3"),
                                        nginx.url + "/radio/live"], capture_output=True)
        assert through_nginx.returncode in (0, 28)  # 28: the stream outlasted --max-time
        assert decoded_seconds(tmp_path / "nginx.mp3") > 1
        time.sleep(6)
        for listener in listeners:
            listener.stop = True
        for listener in listeners:
            listener.join(timeout=15)
        for number, listener in enumerate(listeners):
            assert not listener.ended, "a listener of a surviving instance was disconnected"
            heard = decoded_seconds(listener.audio(tmp_path / f"listener{number}.mp3"))
            # Three seconds before the loss, the gap, then the source again, all decoded by ffmpeg.
            assert heard > 8, heard
        assert accepted_within < 4, accepted_within

        # Its new instance is lost too, and no source comes back: a listener of the third stays,
        # hearing silence, and every instance says the station is on the air, not live.
        listener = Listener(third.port, "live")
        listener.start()
        time.sleep(1)
        second.kill()
        reconnected.kill()
        lost_at = time.monotonic()
        deadline = lost_at + 5
        while time.monotonic() < deadline:
            station = third.call("GET", "/api/v1/stations/live").json()
            if station["onAir"] and not station["live"]:
                break
            time.sleep(0.1)
        assert station["onAir"] and not station["live"], station
        assert time.monotonic() - lost_at < 3.5
        time.sleep(3)
        listener.stop = True
        listener.join(timeout=15)
        assert not listener.ended
        assert decoded_seconds(listener.audio(tmp_path / "silence.mp3")) > 3
    finally:
        for process in (broadcast, reconnected):
            if process and process.poll() is None:
                process.kill()
        for server in (first, second):
            if server.process is None:
                server.start()


class SlowIIS:
    """An IIS server that answers every request after a second, with 503: each sync runs for a
    second (and fails, leaving the timetable as it was)."""

    def __init__(self):
        import http.server

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_GET(self):
                time.sleep(1)
                self.send_response(503)
                self.send_header("Content-Length", "0")
                self.end_headers()

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


def sync_runs(database):
    """The IIS sync's runs: instance, start and end (milliseconds; None while it runs)."""
    rows = psql(database, "SELECT instance, started_at, COALESCE(finished_at, -1) FROM job_runs "
                          "WHERE name = 'iis-sync' ORDER BY started_at")
    return [(instance, int(started), None if finished == "-1" else int(finished))
            for instance, started, finished in rows]


def test_two_instances_run_a_job_once_and_the_other_takes_it_over_when_its_holder_dies(tmp_path):
    database = make_postgres_database()
    iis = SlowIIS()
    extra = ["--media-dir", str(tmp_path / "media"), "--iis-url", iis.base, "--iis-sync-hours", "0.001"]
    servers = [Campus(tmp_path / f"data{number}", database=database, extra=extra).start() for number in (1, 2)]
    try:
        deadline = time.monotonic() + 40
        while len([run for run in sync_runs(database) if run[2]]) < 3 and time.monotonic() < deadline:
            time.sleep(0.5)
        runs = sync_runs(database)
        assert len(runs) >= 3, runs
        holders = {instance for instance, _, _ in runs}
        assert len(holders) == 1, f"the job moved between live instances: {runs}"
        # The command line says who runs it, and how its last run went.
        listed = run_cli("jobs", database=database).stdout.splitlines()
        sync = next(line.split("\t") for line in listed if line.startswith("iis-sync\t"))
        assert sync[1] == next(iter(holders)) and sync[5] != "-", listed
        assert listed[-1] == f"{len(listed) - 1} jobs", listed
        holder_pid = int(next(iter(holders)).split()[-2])
        holder = next(server for server in servers if server.process.pid == holder_pid)
        other = next(server for server in servers if server is not holder)
        holder.kill()
        killed_at = int(time.time() * 1000)
        deadline = time.monotonic() + 40
        while time.monotonic() < deadline:
            runs = sync_runs(database)
            if any(instance not in holders for instance, _, _ in runs):
                break
            time.sleep(0.5)
        taken = [run for run in runs if run[0] not in holders]
        assert taken, f"nobody took the job over:\n{other.read_log()}"
        # Within the lease (15 s) and a look (5 s) of the kill, and never while the holder ran it.
        assert killed_at <= taken[0][1] <= killed_at + 25_000, (killed_at, taken)
        for (_, _, finished), (_, started, _) in zip(runs, runs[1:]):
            assert (finished if finished is not None else killed_at) <= started, runs
    finally:
        for server in servers:
            server.stop()
        iis.close()


def test_live_positions_sent_to_one_instance_reach_a_live_track_follower_on_another(cluster):
    """Issue 41: a runner's phone sends positions to the first instance; a live page following the
    race on the third sees each batch, once, with its new positions."""
    _, _, _, servers, _ = cluster
    first, _, third = servers
    first.register("organizer41@example.org", organizer=True)
    first.register("runner41@example.org")
    organizer = first.login("organizer41@example.org")
    runner = first.login("runner41@example.org")
    competition = first.call("POST", "/api/v1/competitions", token=organizer,
                             json={"name": "Live across instances", "metric": "distance"}).json()["id"]
    assert first.call("POST", f"/api/v1/competitions/{competition}/participants/me", token=runner).status_code == 201
    start = time.time() - 60
    batches = [[{"lat": 53.9 + (b * 5 + i) * 0.0001, "lon": 27.56,
                 "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(start + b * 5 + i)) + "Z"} for i in range(5)]
               for b in range(3)]
    positions = []
    names = []
    with requests.get(f"{third.url}/api/v1/competitions/{competition}/tracking/live", stream=True, timeout=10,
                      headers={"Authorization": f"Bearer {organizer}", "Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200
        sent = 0
        name = None
        deadline = time.monotonic() + 10
        for line in stream.iter_lines():
            if line.startswith(b"event:"):
                name = line[6:].strip().decode()
            elif line.startswith(b"data:"):
                names.append(name)
                data = json.loads(line[5:])
                if name == "position":
                    positions.extend(data["added"])
                if sent < len(batches) and len(positions) == sent * 5:
                    answer = first.call("POST", f"/api/v1/competitions/{competition}/tracking", token=runner,
                                        json={"points": batches[sent]})
                    assert answer.status_code == 200, answer.text
                    sent += 1
                elif len(positions) >= 15:
                    break
            assert time.monotonic() < deadline, (names, positions)
    assert names == ["tracks", "position", "position", "position"]
    assert [p[0] for p in positions] == [pytest.approx(53.9 + i * 0.0001) for i in range(15)]
    assert data["distanceMeters"] == pytest.approx(14 * 11.12, rel=0.01)


def test_a_chat_message_written_on_one_instance_reaches_a_follower_on_another(cluster):
    """Issue 41: a message written on the first instance and its deletion on the second reach a
    chat page following on the third, in order."""
    _, _, _, servers, _ = cluster
    first, second, third = servers
    first.register("organizer41chat@example.org", organizer=True)
    first.register("runner41chat@example.org")
    organizer = first.login("organizer41chat@example.org")
    runner = first.login("runner41chat@example.org")
    competition = first.call("POST", "/api/v1/competitions", token=organizer,
                             json={"name": "Chat across instances", "metric": "time"}).json()["id"]
    assert first.call("POST", f"/api/v1/competitions/{competition}/participants/me", token=runner).status_code == 201
    events = []
    with requests.get(f"{third.url}/api/v1/competitions/{competition}/messages/live?after=0", stream=True,
                      timeout=10, headers={"Authorization": f"Bearer {runner}"}) as stream:
        assert stream.status_code == 200
        written = first.call("POST", f"/api/v1/competitions/{competition}/messages", token=runner,
                             json={"text": "Где старт?"})
        assert written.status_code == 201, written.text
        deadline = time.monotonic() + 10
        for line in stream.iter_lines():
            if line.startswith(b"data:"):
                events.append(json.loads(line[5:]))
                if len(events) == 1:
                    assert second.call("DELETE", f"/api/v1/competitions/{competition}/messages/{written.json()['id']}",
                                       token=organizer).status_code == 204
                else:
                    break
            assert time.monotonic() < deadline, events
    assert [(e["text"], e["deleted"]) for e in events] == [("Где старт?", False), ("", True)]
    assert events[0]["version"] < events[1]["version"]
