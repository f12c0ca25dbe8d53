"""The deployment files, for real (issue 40): deploy/campus.service passes `systemd-analyze verify`
and its ExecStart flags start Campus; deploy/nginx.conf with deploy/campus-locations.conf and
deploy/nginx-stream.conf (radio sources), as
Debian's nginx reads them, in front of that Campus: pages, HTTP/2 over TLS, an upload, a ranged
stream, a live ranking (Server-Sent Events), a radio source and a listener through nginx, and the
client's own address (not one it made up) in the audit log."""
import json
import shlex
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
import requests

from conftest import BINARY, Campus, free_port, run_cli
from test_instances import Nginx, tone_with_cover
from test_radio import PASSWORD, source, wait_on_air

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
ADMIN = ("admin@example.org", "secret-admin-40")


def unit_flags():
    """`campus serve`'s flags in the unit's ExecStart, without the port and data directory the
    test chooses."""
    line = next(line for line in (DEPLOY / "campus.service").read_text().splitlines()
                if line.startswith("ExecStart="))
    words = shlex.split(line.removeprefix("ExecStart="))
    assert words[:2] == ["/usr/local/bin/campus", "serve"], words
    flags, skip = [], False
    for word in words[2:]:
        if skip:
            skip = False
        elif word in ("--port", "--data-dir"):
            skip = True
        else:
            flags.append(word)
    return flags


def test_the_systemd_unit_is_valid(tmp_path):
    if shutil.which("systemd-analyze") is None:
        pytest.skip("systemd-analyze is not installed")
    unit = tmp_path / "campus.service"
    unit.write_text((DEPLOY / "campus.service").read_text().replace("/usr/local/bin/campus", BINARY))
    verified = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True, text=True)
    # It warns about an unknown key or a value it cannot read on stderr, and still exits 0.
    assert verified.returncode == 0 and verified.stderr.strip() == "", verified.stderr
    assert "--trust-proxy" in unit_flags() and "127.0.0.1" in unit_flags()


def certificate(folder):
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj",
                    "/CN=campus.example.org", "-keyout", str(folder / "privkey.pem"), "-out",
                    str(folder / "fullchain.pem")], check=True, capture_output=True)


def rendered(campus_port, tls_port, folder):
    """deploy/nginx.conf as this machine runs it: its ports, its certificate, loopback only."""
    locations = folder / "campus-locations.conf"
    locations.write_text((DEPLOY / "campus-locations.conf").read_text())
    config = (DEPLOY / "nginx.conf").read_text()
    replacements = {
        "server 127.0.0.1:8080": f"server 127.0.0.1:{campus_port}",
        "listen 443 ssl http2;": f"listen 127.0.0.1:{tls_port} ssl http2;",
        "/etc/ssl/campus/": f"{folder}/",
        "/etc/nginx/campus-locations.conf": str(locations),
    }
    for old, new in replacements.items():
        assert old in config, old
        config = config.replace(old, new)
    lines = [line for line in config.splitlines() if "listen [::]" not in line]
    return lambda port: "\n".join(lines).replace("listen 80;", f"listen 127.0.0.1:{port};")


def rendered_stream(campus_port, source_port):
    """deploy/nginx-stream.conf, for radio sources, on this machine's ports."""
    config = (DEPLOY / "nginx-stream.conf").read_text()
    for old, new in {"server 127.0.0.1:8080;": f"server 127.0.0.1:{campus_port};",
                     "listen 8000;": f"listen 127.0.0.1:{source_port};"}.items():
        assert old in config, old
        config = config.replace(old, new)
    module = "load_module /usr/lib/nginx/modules/ngx_stream_module.so;\n"
    return module + "\n".join(line for line in config.splitlines() if "listen [::]" not in line)


@pytest.fixture(scope="module")
def deployed(tmp_path_factory):
    if shutil.which("nginx") is None or not Path("/usr/lib/nginx/modules/ngx_stream_module.so").exists():
        pytest.skip("nginx or its stream module is not installed (scripts/install-test-tools installs them)")
    root = tmp_path_factory.mktemp("deploy")
    data = root / "data"
    run_cli("user", "create", "--email", ADMIN[0], "--admin", "--password", ADMIN[1], data_dir=data)
    run_cli("station", "add", "Campus Live", "--mount", "live", "--source-password", PASSWORD, data_dir=data)
    campus = Campus(data, extra=unit_flags()).start()
    certificate(root)
    tls_port, source_port = free_port(), free_port()
    try:
        nginx = Nginx(root / "nginx", http=rendered(campus.port, tls_port, root),
                      top=rendered_stream(campus.port, source_port))
        nginx.source_port = source_port
        yield campus, nginx, tls_port
        nginx.stop()
    finally:
        campus.stop()


def through(nginx, method, path, token=None, **kwargs):
    headers = kwargs.pop("headers", {})
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return requests.request(method, nginx.url + path, headers=headers, timeout=30, **kwargs)


def login(nginx, email, password):
    answer = through(nginx, "POST", "/api/v1/auth/login", json={"email": email, "password": password})
    assert answer.status_code == 200, answer.text
    return answer.json()["token"]


def test_pages_and_http2_over_tls(deployed):
    _, nginx, tls_port = deployed
    page = through(nginx, "GET", "/timetable", headers={"Accept-Encoding": "gzip"})
    assert page.status_code == 200 and "text/html" in page.headers["Content-Type"]
    assert page.headers.get("Content-Encoding") == "gzip"  # Campus's own, passed on
    version = subprocess.run(["curl", "-sk", "--http2", "-o", "/dev/null", "-w", "%{http_version}",
                              f"https://127.0.0.1:{tls_port}/health"], capture_output=True, text=True, timeout=30)
    assert version.stdout == "2", version


def test_an_upload_and_a_ranged_stream(deployed, tmp_path):
    _, nginx, _ = deployed
    token = login(nginx, *ADMIN)
    original = tone_with_cover(tmp_path / "tone.mp3")
    uploaded = through(nginx, "POST", "/api/v1/library/uploads", token=token, data=original,
                       params={"name": "tone.mp3", "folder": "Deploy"},
                       headers={"Content-Type": "application/octet-stream"})
    assert uploaded.status_code in (200, 201), uploaded.text
    ranged = through(nginx, "GET", f"/api/v1/media/{uploaded.json()['id']}/stream", token=token,
                     headers={"Range": "bytes=1000-1999"})
    assert ranged.status_code == 206, ranged.text
    assert ranged.headers["Content-Range"] == f"bytes 1000-1999/{len(original)}"
    assert ranged.content == original[1000:2000]


def test_a_live_ranking_update_arrives_through_nginx(deployed):
    campus, nginx, _ = deployed
    campus.register("organizer40@example.org", organizer=True)
    runner = campus.register("runner40@example.org")
    organizer = login(nginx, "organizer40@example.org", "correct horse")
    competition = through(nginx, "POST", "/api/v1/competitions", token=organizer,
                          json={"name": "Behind nginx", "metric": "time"}).json()["id"]
    token = login(nginx, "runner40@example.org", "correct horse")
    assert through(nginx, "POST", f"/api/v1/competitions/{competition}/participants/me",
                   token=token).status_code == 201
    events = []
    with requests.get(f"{nginx.url}/api/v1/competitions/{competition}/ranking/live", stream=True, timeout=10,
                      headers={"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}) as stream:
        assert stream.status_code == 200
        deadline = time.monotonic() + 10
        for line in stream.iter_lines():
            if line.startswith(b"data:"):
                events.append(json.loads(line[5:]))
                if len(events) == 1:
                    answer = through(nginx, "PUT", f"/api/v1/competitions/{competition}/participants/"
                                     f"{runner['id']}/result", token=organizer, json={"value": 1234})
                    assert answer.status_code == 200, answer.text
                elif any(item.get("result") == 1234 for item in events[-1]["items"]):
                    break
            assert time.monotonic() < deadline, events
    assert events[-1]["items"][0]["result"] == 1234


class Port:
    def __init__(self, port):
        self.port = port


def test_a_radio_source_and_a_listener_through_nginx(deployed):
    campus, nginx, _ = deployed
    # The source through the stream module's port; the listener through the site's.
    broadcast = source(Port(nginx.source_port), "live", seconds=8)
    try:
        wait_on_air(campus, "live")
        with socket.create_connection(("127.0.0.1", nginx.port), timeout=10) as connection:
            connection.sendall(b"GET /radio/live HTTP/1.1\r\nHost: campus.example.org\r\n\r\n")
            received = b""
            deadline = time.monotonic() + 3
            while time.monotonic() < deadline and len(received) < 40_000:
                received += connection.recv(65536)
        head, _, body = received.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 200"), head
        assert len(body) > 16_000  # three seconds of 128 kbit/s audio, more or less
    finally:
        broadcast.kill()
        broadcast.wait()


def test_the_audit_log_has_the_clients_own_address(deployed):
    _, nginx, _ = deployed
    token = login(nginx, *ADMIN)
    body = b'{"blocks":[{"type":"genres","title":"Genres","source":"genres"}]}'
    # From 127.0.0.2, saying it is 203.0.113.9: nginx replaces what the client says.
    with socket.socket() as connection:
        connection.bind(("127.0.0.2", 0))
        connection.settimeout(10)
        connection.connect(("127.0.0.1", nginx.port))
        connection.sendall(
            b"PUT /api/v1/feed/blocks HTTP/1.1\r\nHost: campus.example.org\r\nConnection: close\r\n"
            + f"Authorization: Bearer {token}\r\nX-Forwarded-For: 203.0.113.9\r\n".encode()
            + f"Content-Type: application/json\r\nContent-Length: {len(body)}\r\n\r\n".encode() + body)
        answer = b""
        while chunk := connection.recv(65536):
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 200"), answer[:300]
    entries = through(nginx, "GET", "/api/v1/audit?action=feed.changed", token=token).json()["items"]
    assert [entry["actor"].get("address") for entry in entries] == ["127.0.0.2"]
