"""Signing in with the university's OpenID provider (issue 40), against a real one: Authlib's
authorization server (oidcprovider.py) in its own process, with PKCE required, nonces, signed ID
tokens and a key set that rotates. In Chromium a student signs in with the provider's button and
gets an account with the role and group its claims say; logging out ends the provider's session
too; an existing account of the same email is linked only with its password. A token the provider
did not sign, an expired one, one for another client or another sign-in, a callback from another
browser or a second time are refused; a rotated key is followed; password sign-in can be off."""
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests
from selenium.webdriver.common.by import By

from conftest import Campus, free_port

PROVIDER = Path(__file__).with_name("oidcprovider.py")
SECRET = "provider-secret"

PEOPLE = {
    "ann": {"sub": "u-ann", "email": "ann@uni.example", "email_verified": True, "given_name": "Ann",
            "family_name": "Lee", "role": ["student", "organizer"], "group": "151004"},
    "bob": {"sub": "u-bob", "email": "bob@uni.example", "email_verified": True, "name": "Bob Grey"},
    "eve": {"sub": "u-eve", "email": "bob@uni.example", "email_verified": False, "name": "Eve"},
    "cat": {"sub": "u-cat", "email": "cat@uni.example", "email_verified": True, "name": "Cat Noir"},
}


class Provider:
    def __init__(self, campus_port):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        redirect = f"http://127.0.0.1:{campus_port}/auth/oidc/callback"
        self.process = subprocess.Popen([sys.executable, str(PROVIDER), str(self.port), "campus", SECRET, redirect],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            try:
                if requests.get(self.url + "/jwks", timeout=1).ok:
                    break
            except requests.ConnectionError:
                time.sleep(0.1)
        self.admin("users", PEOPLE)

    def admin(self, what, body=None):
        answer = requests.post(f"{self.url}/admin/{what}", json=body if body is not None else {}, timeout=10)
        assert answer.ok, answer.text
        return answer.json()

    def log(self):
        return requests.get(self.url + "/admin/log", timeout=10).json()

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


@pytest.fixture
def pair(data_dir):
    """Campus told of the provider, and the provider of Campus's callback."""
    campus = Campus(data_dir, extra=["--oidc-name", "Test University"])
    campus.port = free_port()
    provider = Provider(campus.port)
    campus.extra += ["--oidc-issuer", provider.url, "--oidc-client-id", "campus", "--oidc-role-claim", "role",
                     "--oidc-group-claim", "group"]
    secret_file = data_dir.parent / "oidc-secret"
    secret_file.write_text(SECRET + "\n")
    campus.extra += ["--oidc-client-secret-file", str(secret_file)]
    campus.start(same_port=True)
    yield campus, provider
    campus.stop()
    provider.stop()


def sign_on(session, campus, provider, username, next_page="/"):
    """The flow a browser follows, with requests: Campus → the provider's form → Campus's callback.
    Returns the callback's answer."""
    start = session.get(campus.url + "/auth/oidc", params={"next": next_page}, allow_redirects=False)
    assert start.status_code == 303 and start.headers["Location"].startswith(provider.url + "/authorize?")
    signed = requests.post(start.headers["Location"], data={"username": username}, allow_redirects=False)
    assert signed.status_code == 302, signed.text
    return session.get(signed.headers["Location"], allow_redirects=False)


def me(session, campus):
    return session.get(campus.url + "/api/v1/me")


def test_a_student_signs_in_with_the_button_and_out_at_the_provider(pair, browser):
    campus, provider = pair
    browser.set_window_size(390, 844)
    browser.get(campus.url + "/login?next=/profile")
    browser.find_element(By.ID, "sign-on").click()
    browser.find_element(By.ID, "idp-user").send_keys("ann")
    browser.find_element(By.ID, "idp-submit").click()
    browser.find_element(By.ID, "logout")
    assert browser.current_url == campus.url + "/profile"
    browser.get(campus.url + "/api/v1/me")
    account = browser.find_element(By.TAG_NAME, "body").text
    for part in ['"email":"ann@uni.example"', '"role":"organizer"', '"group":"151004"', '"firstName":"Ann"']:
        assert part in account, account

    # Logging out ends the provider's session too, and comes back home.
    browser.get(campus.url + "/")
    browser.execute_script("document.getElementById('logout').form.submit()")
    browser.find_element(By.ID, "login-link")
    assert browser.current_url == campus.url + "/"
    logouts = provider.log()["logouts"]
    assert len(logouts) == 1 and logouts[0]["post_logout_redirect_uri"] == campus.url + "/"
    assert logouts[0]["id_token_hint"].count(".") == 2 and logouts[0]["client_id"] == "campus"


def test_an_account_of_the_same_email_is_linked_only_with_its_password(pair, browser):
    campus, provider = pair
    campus.register("bob@uni.example", first="Bob", last="Grey")
    # Someone whose provider account says bob's address without having verified it gets nothing.
    other = requests.Session()
    refused = sign_on(other, campus, provider, "eve")
    assert refused.status_code == 409 and "session" not in other.cookies

    browser.get(campus.url + "/login")
    browser.find_element(By.ID, "sign-on").click()
    browser.find_element(By.ID, "idp-user").send_keys("bob")
    browser.find_element(By.ID, "idp-submit").click()
    browser.find_element(By.ID, "password").send_keys("not his password")
    browser.find_element(By.ID, "link-submit").click()
    assert browser.find_element(By.ID, "link-error").text
    browser.find_element(By.ID, "password").send_keys("correct horse")
    browser.find_element(By.ID, "link-submit").click()
    browser.find_element(By.ID, "logout")

    # From now on the provider alone signs him in, to the same account.
    session = requests.Session()
    assert sign_on(session, campus, provider, "bob").status_code == 303
    assert me(session, campus).json()["email"] == "bob@uni.example"
    assert campus.login("bob@uni.example")  # his password still works while password sign-in is on


def test_tokens_that_do_not_hold_are_refused_and_a_rotated_key_is_followed(pair):
    campus, provider = pair
    session = requests.Session()
    assert sign_on(session, campus, provider, "cat").status_code == 303
    assert me(session, campus).status_code == 200

    for wrong in [{"forge": True}, {"expired": True}, {"aud": "another-client"}, {"nonce": "another"},
                  {"kid": "nobody-publishes-this"}]:
        provider.admin("next", wrong)
        stranger = requests.Session()
        answer = sign_on(stranger, campus, provider, "cat")
        assert answer.status_code == 401, (wrong, answer.status_code)
        assert "session" not in stranger.cookies, wrong

    # A callback comes back once, and only to the browser that started the sign-in.
    started = requests.Session()
    start = started.get(campus.url + "/auth/oidc", allow_redirects=False)
    callback = requests.post(start.headers["Location"], data={"username": "cat"}, allow_redirects=False)
    thief = requests.Session()
    assert thief.get(callback.headers["Location"], allow_redirects=False).status_code == 401
    assert started.get(callback.headers["Location"], allow_redirects=False).status_code == 401
    assert requests.get(campus.url + "/auth/oidc/callback?state=made-up&code=x", allow_redirects=False).status_code == 401

    # The person said no at the provider.
    denied = sign_on(requests.Session(), campus, provider, "nobody-there")
    assert denied.status_code == 401 and "Test University" in denied.text

    # The provider rotates its keys (the old one gone): Campus reads the key set again.
    read_before = provider.log()["keys_read"]
    provider.admin("rotate", {"drop_old": True})
    time.sleep(5)  # Campus reads the keys again at most once in five seconds
    again = requests.Session()
    assert sign_on(again, campus, provider, "cat").status_code == 303
    assert me(again, campus).json()["email"] == "cat@uni.example"
    assert provider.log()["keys_read"] == read_before + 1
    # Nothing of the flow's secrets reached the log.
    log = campus.read_log()
    assert SECRET not in log and "code=" not in log and "id_token" not in log


def test_with_password_sign_in_off_only_the_provider_signs_in(data_dir):
    campus = Campus(data_dir)
    campus.port = free_port()
    provider = Provider(campus.port)
    try:
        campus.extra += ["--oidc-issuer", provider.url, "--oidc-client-id", "campus", "--oidc-client-secret",
                         SECRET, "--password-sign-in", "off"]
        campus.start(same_port=True)
        login = campus.call("POST", "/api/v1/auth/login", json={"email": "a@b.example", "password": "whatever1"})
        assert login.status_code == 403 and login.json()["type"].endswith("/problems/password-sign-in-off")
        register = campus.call("POST", "/api/v1/auth/register", json={
            "email": "a@b.example", "password": "whatever1", "firstName": "A", "lastName": "B"})
        assert register.status_code == 403
        page = requests.get(campus.url + "/login").text
        assert 'id="sign-on"' in page and 'name="password"' not in page and "/register" not in page
        assert requests.get(campus.url + "/register", allow_redirects=False).status_code == 303
        session = requests.Session()
        assert sign_on(session, campus, provider, "cat").status_code == 303
        assert me(session, campus).json()["role"] == "user"  # no role claim configured here
    finally:
        campus.stop()
        provider.stop()


def test_an_account_made_at_the_provider_has_no_password_and_confirms_with_its_email(pair):
    campus, provider = pair
    session = requests.Session()
    assert sign_on(session, campus, provider, "cat", next_page="/profile").status_code == 303
    profile = session.get(campus.url + "/profile").text
    assert "has no password here" in profile and 'name="currentPassword"' not in profile
    csrf = re.search(r'name="_csrf" value="([^"]+)"', profile).group(1)
    # No password can be changed, and none signs in: the provider alone does.
    changed = session.post(campus.url + "/profile/password", data={
        "_csrf": csrf, "currentPassword": "", "newPassword": "a new password", "confirmation": "a new password"})
    assert changed.status_code == 409
    assert campus.call("POST", "/api/v1/auth/login", json={"email": "cat@uni.example", "password": "!"}
                       ).status_code == 401
    # Deleting the account asks for its email address, typed again.
    wrong = session.post(campus.url + "/profile/delete", data={"_csrf": csrf, "password": "dog@uni.example"},
                         allow_redirects=False)
    assert wrong.status_code == 403 and me(session, campus).status_code == 200
    gone = session.post(campus.url + "/profile/delete", data={"_csrf": csrf, "password": " Cat@Uni.example "},
                        allow_redirects=False)
    assert gone.status_code == 303 and me(session, campus).status_code == 401
    # Signing in at the provider again makes a new account.
    again = requests.Session()
    assert sign_on(again, campus, provider, "cat").status_code == 303
    assert me(again, campus).json()["email"] == "cat@uni.example"
