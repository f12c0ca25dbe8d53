"""Data survives restarts and kill -9, on SQLite and PostgreSQL; SIGTERM stops the server cleanly."""
import signal

from conftest import Campus, make_postgres_database


def edit_profile(server, token, group):
    response = server.call("PATCH", "/api/v1/me", token=token, json={"group": group, "subgroup": 2})
    assert response.status_code == 200, response.text


def check_survives(server):
    server.register("ann@example.org")
    edit_profile(server, server.login("ann@example.org"), "151004")

    # A clean stop (SIGTERM) exits 0 and keeps everything.
    assert server.stop(signal.SIGTERM) == 0
    server.start()
    token = server.login("ann@example.org")
    me = server.call("GET", "/api/v1/me", token=token).json()
    assert me["group"] == "151004"

    # A write acknowledged just before kill -9 is there after the restart.
    edit_profile(server, token, "010101")
    server.register("bob@example.org")
    server.kill()
    server.start()
    assert server.call("GET", "/api/v1/me", token=server.login("ann@example.org")).json()["group"] == "010101"
    server.login("bob@example.org")


def test_sqlite_data_survives_restart_and_kill(data_dir):
    server = Campus(data_dir).start()
    try:
        check_survives(server)
        assert (data_dir / "campus.sqlite").exists()
    finally:
        server.stop()


def test_postgres_data_survives_restart_and_kill(data_dir):
    server = Campus(data_dir, database=make_postgres_database()).start()
    try:
        check_survives(server)
        assert not (data_dir / "campus.sqlite").exists()
    finally:
        server.stop()


def test_two_instances_share_one_postgres_database(tmp_path):
    """Sessions live in the database, so any instance accepts a token from another."""
    database = make_postgres_database()
    shared = ["--media-dir", str(tmp_path / "media")]
    first = Campus(tmp_path / "one", database=database, extra=shared).start()
    second = Campus(tmp_path / "two", database=database, extra=shared).start()
    try:
        first.register("ann@example.org")
        token = second.login("ann@example.org")
        assert first.call("GET", "/api/v1/me", token=token).status_code == 200
        assert second.call("POST", "/api/v1/auth/logout", token=token).status_code == 204
        assert first.call("GET", "/api/v1/me", token=token).status_code == 401
    finally:
        first.stop()
        second.stop()


def test_readiness_reports_the_database(any_database):
    ready = any_database.call("GET", "/ready")
    assert ready.status_code == 200
    assert ready.json()["database"] == ("postgres" if any_database.database else "sqlite")
    metrics = any_database.call("GET", "/metrics")
    assert metrics.status_code == 200
    assert "hb_requests" in metrics.text
