"""Starts real `campus` processes for the end-to-end tests.

The binary comes from CAMPUS_BINARY (scripts/test sets it to the debug build); PostgreSQL tests use
the server named by CAMPUS_TEST_POSTGRES_URL, in a fresh database per test.
"""
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import time
import uuid
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[2]
BINARY = os.environ.get("CAMPUS_BINARY", str(ROOT / ".build" / "debug" / "campus"))
POSTGRES_URL = os.environ.get("CAMPUS_TEST_POSTGRES_URL")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_cli(*args, data_dir=None, database=None, check=True, language="en"):
    """Runs `campus ARGS…` and returns the finished process (text output), speaking `language`
    (CAMPUS_LANGUAGE; the POSIX locale of whoever runs the tests does not count)."""
    command = [BINARY, *args]
    if data_dir is not None:
        command += ["--data-dir", str(data_dir)]
    if database is not None:
        command += ["--database", database]
    environment = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    environment["CAMPUS_LANGUAGE"] = language
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, env=environment)
    if check and result.returncode != 0:
        raise AssertionError(f"{command} failed ({result.returncode}):\n{result.stdout}\n{result.stderr}")
    return result


_demo_media = None


def demo_media():
    """The demo's media library, made once per test run by the script `campus serve --demo` runs
    (scripts/make-demo-media), for demo servers to find in their data directory as made already."""
    global _demo_media
    if _demo_media is None:
        folder = Path(tempfile.mkdtemp(prefix="campus-demo-media-")) / "demo-media"
        subprocess.run([str(ROOT / "scripts" / "make-demo-media"), str(folder)], check=True, capture_output=True)
        _demo_media = folder
    return _demo_media


class Campus:
    """One `campus serve` process on a free port of 127.0.0.1. A demo server (without a library of
    its own) gets the demo's media made once per test run, unless `own_demo_media` asks it to
    make them itself; `environment` adds to or replaces variables of its environment; `prefix` is
    the command it runs under (unshare, for a mount namespace of its own)."""

    def __init__(self, data_dir, database=None, demo=False, extra=(), language="en", own_demo_media=False,
                 environment=None, prefix=()):
        self.data_dir = Path(data_dir)
        self.database = database
        self.demo = demo
        self.own_demo_media = own_demo_media
        self.environment = environment
        self.prefix = list(prefix)
        # The tests read English pages unless they say otherwise; the demo's own default is Russian
        # (test_languages.py starts it without --language).
        self.language = language
        self.extra = list(extra)
        self.process = None
        self.port = None
        self.output = ""

    @property
    def url(self):
        return f"http://127.0.0.1:{self.port}"

    def start(self, timeout=60, same_port=False):
        """Starts the server on a free port, or on the port it had (`same_port`: the browser's
        origin, and what it keeps for it, stay the same)."""
        if not (same_port and self.port):
            self.port = free_port()
        command = [*self.prefix, BINARY, "serve", "--port", str(self.port), "--data-dir", str(self.data_dir),
                   "--bcrypt-cost", "4", *self.extra]
        if self.database:
            command += ["--database", self.database]
        if self.demo:
            command.append("--demo")
            media = self.data_dir / "demo-media"
            if not self.own_demo_media and "--library" not in self.extra and not (media / ".complete").exists():
                shutil.copytree(demo_media(), media, dirs_exist_ok=True)
        if self.language:
            command += ["--language", self.language]
        self.log_path = self.data_dir.parent / f"campus-{self.port}.log"
        self.log = open(self.log_path, "w")
        environment = None
        if self.environment is not None:
            environment = {**os.environ, **self.environment}
        self.process = subprocess.Popen(command, stdout=self.log, stderr=subprocess.STDOUT, text=True,
                                        env=environment)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"campus exited with {self.process.returncode}:\n{self.read_log()}")
            try:
                if requests.get(self.url + "/health", timeout=1).status_code == 200:
                    return self
            except requests.ConnectionError:
                pass
            time.sleep(0.1)
        raise AssertionError(f"campus did not answer within {timeout} s:\n{self.read_log()}")

    def read_log(self):
        self.log.flush()
        return self.log_path.read_text()

    def stop(self, sig=signal.SIGTERM, timeout=30):
        if self.process and self.process.poll() is None:
            self.process.send_signal(sig)
            self.process.wait(timeout=timeout)
        code = self.process.returncode if self.process else None
        if self.process:
            self.log.close()
        self.process = None
        return code

    def kill(self):
        return self.stop(signal.SIGKILL)

    def restart(self):
        self.stop()
        return self.start()

    # API helpers

    def call(self, method, path, token=None, **kwargs):
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return requests.request(method, self.url + path, headers=headers, timeout=30, **kwargs)

    def register(self, email, password="correct horse", first="Ann", last="Lee", organizer=False):
        response = self.call("POST", "/api/v1/auth/register", json={
            "email": email, "password": password, "firstName": first, "lastName": last, "organizer": organizer})
        assert response.status_code == 201, response.text
        return response.json()

    def login(self, email, password="correct horse"):
        response = self.call("POST", "/api/v1/auth/login", json={"email": email, "password": password})
        assert response.status_code == 200, response.text
        return response.json()["token"]


def make_postgres_database():
    """Creates an empty database on the test server and returns its URL."""
    if not POSTGRES_URL:
        pytest.skip("CAMPUS_TEST_POSTGRES_URL is not set (scripts/test starts PostgreSQL)")
    name = "campus_e2e_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", POSTGRES_URL, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    return POSTGRES_URL.rsplit("/", 1)[0] + "/" + name


@pytest.fixture
def data_dir(tmp_path):
    return tmp_path / "campus-data"


@pytest.fixture
def campus(data_dir):
    server = Campus(data_dir, demo=True).start()
    yield server
    server.stop()


@pytest.fixture(params=["sqlite", "postgres"])
def any_database(request, data_dir):
    """A fresh server on SQLite, then on PostgreSQL."""
    database = make_postgres_database() if request.param == "postgres" else None
    server = Campus(data_dir, database=database, demo=True).start()
    yield server
    server.stop()


def chromium(profile, *arguments, phone=False, performance_log=False):
    """Debian's Chromium driven by Selenium, headless, with the profile folder `profile`; a
    `phone` is a 390x844 touch screen (Chromium's device mode)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.options import Options
    from selenium.webdriver.chrome.service import Service

    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900",
                     f"--user-data-dir={profile}", *arguments):
        options.add_argument(argument)
    if performance_log:
        # CDP events (as `driver.get_log("performance")`), for a test that needs one's data.
        options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    if phone:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                               {"width": 390, "height": 844, "deviceScaleFactor": 2, "mobile": True})
        driver.execute_cdp_cmd("Emulation.setTouchEmulationEnabled", {"enabled": True})
    return driver


@pytest.fixture
def browser(tmp_path):
    """Debian's Chromium driven by Selenium, headless, with a profile of its own."""
    driver = chromium(tmp_path / "chromium")
    driver.implicitly_wait(5)
    yield driver
    driver.quit()
