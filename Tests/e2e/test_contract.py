"""The API keeps its OpenAPI document: validated by openapi-spec-validator, fuzzed by schemathesis."""
import subprocess
import sys
from pathlib import Path

import yaml
from openapi_spec_validator import validate

ROOT = Path(__file__).resolve().parents[2]
SCHEMATHESIS = str(Path(sys.executable).with_name("schemathesis"))


def test_the_served_document_is_valid_openapi(campus):
    served = campus.call("GET", "/openapi.yaml")
    assert served.status_code == 200
    document = yaml.safe_load(served.text)
    validate(document)
    assert document == yaml.safe_load((ROOT / "openapi.yaml").read_text())
    assert campus.call("GET", "/openapi.json").json() == document
    page = campus.call("GET", "/api")
    assert page.status_code == 200 and "POST" in page.text and "/api/v1/auth/login" in page.text


def schemathesis(campus, token, *options):
    command = [SCHEMATHESIS, "--config-file", str(ROOT / "Tests/e2e/schemathesis.toml"), "run", str(ROOT / "openapi.yaml"), "--url", campus.url, "--checks", "all",
               "--header", f"Authorization: Bearer {token}", "--max-examples", "60", "--seed", "1", "--workers", "2",
               "--suppress-health-check", "all", *options]
    result = subprocess.run(command, capture_output=True, text=True, timeout=1200, cwd=campus.data_dir.parent)
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
    return result.stdout


def test_schemathesis_finds_no_server_errors_and_no_schema_violations(campus):
    """Every check schemathesis has, over every operation, signed in as an admin."""
    token = campus.login("admin@campus.test", "campus-admin")
    # Logging out revokes the token a run uses, so it runs on its own with another token, made
    # now: the fuzzed logins soon lock this address out, as they should.
    student = campus.login("student@campus.test", "campus-student")
    # The live ranking, live tracks and chats are endless event streams; CompeteLiveTests,
    # test_compete.py, test_tracking.py, test_chat.py and test_instances.py read them.
    schemathesis(campus, token, "--exclude-operation-id", "logout", "--exclude-operation-id", "followRanking",
                "--exclude-operation-id", "followStation", "--exclude-operation-id", "followTracking",
                "--exclude-operation-id", "followChat")
    schemathesis(campus, student, "--include-operation-id", "logout")
    health = campus.call("GET", "/health")
    assert health.status_code == 200
    assert " 500 " not in campus.read_log() and "status=500" not in campus.read_log()
