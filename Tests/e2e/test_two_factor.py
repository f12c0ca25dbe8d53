"""Two-factor sign-in with outside parts (issue 40): in Chromium, a student scans the enrolment's
QR code (decoded by zxing-cpp from a screenshot), confirms with pyotp's code (RFC 6238, written
by others), gets ten recovery codes, and signs in with the password and a code; the API's login
asks for the code, takes each code once and each recovery code once, and throttles wrong codes."""
import io
import time
from urllib.parse import parse_qs, urlparse

import pyotp
import zxingcpp
from PIL import Image
from selenium.webdriver.common.by import By

from conftest import Campus

EMAIL = "ann@example.org"
PASSWORD = "correct horse"


def sign_in(browser, server, code=None):
    browser.get(server.url + "/login")
    browser.find_element(By.ID, "email").send_keys(EMAIL)
    browser.find_element(By.ID, "password").send_keys(PASSWORD)
    if code:
        browser.find_element(By.ID, "code").send_keys(code)
    browser.find_element(By.ID, "login-submit").click()


def test_enrol_with_the_qr_code_and_sign_in_with_pyotps_codes(data_dir, browser):
    server = Campus(data_dir).start()
    try:
        server.register(EMAIL)
        sign_in(browser, server)
        browser.find_element(By.ID, "logout")
        browser.get(server.url + "/profile/two-factor")
        browser.find_element(By.ID, "two-factor-start").click()

        # The QR code, as the phone's camera sees it.
        picture = Image.open(io.BytesIO(browser.find_element(By.ID, "two-factor-qr").screenshot_as_png))
        found = zxingcpp.read_barcodes(picture)
        assert len(found) == 1 and found[0].format == zxingcpp.BarcodeFormat.QRCode, found
        address = urlparse(found[0].text)
        assert address.scheme == "otpauth" and address.netloc == "totp", found[0].text
        secret = parse_qs(address.query)["secret"][0]
        assert browser.find_element(By.ID, "two-factor-secret").text.replace(" ", "") == secret
        totp = pyotp.TOTP(secret)

        browser.find_element(By.ID, "two-factor-code").send_keys(totp.now())
        browser.find_element(By.ID, "two-factor-confirm").click()
        codes = [item.text for item in browser.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
        assert len(codes) == 10 and len(set(codes)) == 10

        # Signing in again: the password alone asks for the code; with pyotp's, it signs in.
        browser.delete_all_cookies()  # signed out (the logout button asks first)
        sign_in(browser, server)
        assert browser.find_element(By.ID, "code").get_attribute("autocomplete") == "one-time-code"
        # The next step's code: the app's clock may run a little ahead, and this step's is used.
        used = totp.at(time.time() + 30)
        browser.find_element(By.ID, "password").send_keys(PASSWORD)
        browser.find_element(By.ID, "code").send_keys(used)
        browser.find_element(By.ID, "login-submit").click()
        browser.find_element(By.ID, "logout")

        # The API: the code asked for by its problem type; a code used once already refused; a
        # recovery code once.
        def login(code=None):
            body = {"email": EMAIL, "password": PASSWORD}
            if code is not None:
                body["code"] = code
            return server.call("POST", "/api/v1/auth/login", json=body)

        without = login()
        assert without.status_code == 401 and without.json()["type"].endswith("/problems/two-factor-required")
        assert login(used).status_code == 401
        assert login(totp.at(time.time() - 90)).status_code == 401  # too old
        assert login(codes[0]).status_code == 200
        assert login(codes[0]).status_code == 401
        # Wrong codes count as failed logins: the fifth in a row blocks even a right one.
        for _ in range(4):
            assert login("000000").status_code == 401
        blocked = login(codes[1])
        assert blocked.status_code == 429 and int(blocked.headers["Retry-After"]) > 0
    finally:
        server.stop()
