"""Backup and restore from the command line (issue 40): `campus backup` while the server serves
and a writer registers accounts, `campus restore` into a new data directory, and a server started
there has the accounts and the uploads; a backup killed with SIGKILL half-way is refused by
`campus restore`, and so is a restore into a data directory that holds a database."""
import hashlib
import os
import signal
import subprocess
import threading
import time

from conftest import BINARY, Campus, run_cli


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_backup_while_serving_and_restore_elsewhere(tmp_path):
    server = Campus(tmp_path / "live").start()
    upload = tmp_path / "live" / "uploads" / "lecture.mp3"
    upload.parent.mkdir(parents=True, exist_ok=True)
    upload.write_bytes(os.urandom(2_000_000))
    registered = []
    stop = threading.Event()

    def writer():
        number = 0
        while not stop.is_set():
            number += 1
            server.register(f"writer{number}@example.org")
            registered.append(f"writer{number}@example.org")

    thread = threading.Thread(target=writer)
    try:
        server.register("ann@example.org")
        run_cli("user", "create", "--email", "root@example.org", "--password", "correct horse", "--admin",
                data_dir=tmp_path / "live")
        thread.start()
        time.sleep(0.5)
        backup = tmp_path / "backup"
        made = run_cli("backup", "--to", str(backup), data_dir=tmp_path / "live")
        assert "files backed up" in made.stdout
        stop.set()
        thread.join()
        assert registered, "the writer registered nobody"
        manifest = (backup / "manifest.json").read_text()
        assert "media/uploads/lecture.mp3" in manifest and sha256(upload) in manifest
        # The audit log has the backup, by the command line.
        entries = server.call("GET", "/api/v1/audit?action=backup.made",
                              token=server.login("root@example.org")).json()["items"]
        assert [entry["actor"]["name"] for entry in entries] == ["command line"]

        # Into a data directory that holds a database: refused, nothing written.
        refused = run_cli("restore", "--from", str(backup), data_dir=tmp_path / "live", check=False)
        assert refused.returncode == 65, refused.stderr
        assert "already exists" in refused.stderr

        restored = run_cli("restore", "--from", str(backup), data_dir=tmp_path / "restored")
        assert "files restored" in restored.stdout
        assert sha256(tmp_path / "restored" / "uploads" / "lecture.mp3") == sha256(upload)
        # The restored server knows Ann and the accounts registered before the backup began.
        copy = Campus(tmp_path / "restored").start()
        try:
            copy.login("ann@example.org")
            copy.login(registered[0])
            copy.login("root@example.org")
        finally:
            copy.stop()
    finally:
        stop.set()
        if thread.is_alive():
            thread.join()
        server.stop()


def test_a_backup_killed_half_way_is_no_backup(tmp_path):
    data = tmp_path / "live"
    run_cli("migrate", data_dir=data)
    big = data / "uploads" / "big"
    big.mkdir(parents=True)
    for number in range(6):
        (big / f"{number}.flac").write_bytes(os.urandom(50_000_000))
    backup = tmp_path / "backup"
    process = subprocess.Popen([BINARY, "backup", "--to", str(backup), "--data-dir", str(data)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while not (backup / "media" / "uploads" / "big").exists() and time.monotonic() < deadline:
        time.sleep(0.01)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert backup.exists() and not (backup / "manifest.json").exists()

    refused = run_cli("restore", "--from", str(backup), data_dir=tmp_path / "restored", check=False)
    assert refused.returncode == 65, refused.stdout + refused.stderr
    assert "no complete backup" in refused.stderr
    assert not (tmp_path / "restored" / "campus.sqlite").exists()
    # A new backup goes into a new folder, and is whole.
    again = run_cli("backup", "--to", str(backup), data_dir=data, check=False)
    assert again.returncode == 65 and "not empty" in again.stderr
    run_cli("backup", "--to", str(tmp_path / "whole"), data_dir=data)
    run_cli("restore", "--from", str(tmp_path / "whole"), data_dir=tmp_path / "restored")
    assert sha256(tmp_path / "restored" / "uploads" / "big" / "5.flac") == sha256(big / "5.flac")
