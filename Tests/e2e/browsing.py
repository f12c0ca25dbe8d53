"""What the browser tests do in a real browser (the `browser` fixture of conftest.py): log in,
fill a field, wait for what a click leads to."""
import time

from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait


def wait_text(browser, locator, text):
    """Waits until the element shows `text` (the page before a click may still be on screen)."""
    WebDriverWait(browser, 10, ignored_exceptions=(StaleElementReferenceException,)).until(
        _text_present_across_navigation(locator, text))


def _text_present_across_navigation(locator, text):
    """Like `EC.text_to_be_present_in_element`, but an element found on the page that a click is
    leaving counts as not found yet: Chromium reports such an element either as stale or, while the
    new document replaces the old, as an "unknown error" that its node "does not belong to the
    document"."""
    present = EC.text_to_be_present_in_element(locator, text)

    def predicate(driver):
        try:
            return present(driver)
        except WebDriverException as error:
            if "does not belong to the document" in str(error.msg):
                return False
            raise
    return predicate


def fill(browser, field, value):
    element = browser.find_element(By.ID, field)
    element.clear()
    element.send_keys(value)


def log_in(browser, campus, email, password):
    browser.get(campus.url + "/login")
    fill(browser, "email", email)
    fill(browser, "password", password)
    browser.find_element(By.ID, "login-submit").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Welcome")


def tap(browser, element):
    """Clicks `element` as a person would: scrolled to the middle of the screen first, since on a
    phone the section tab bar and the mini player cover the screen's bottom edge."""
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", element)
    element.click()


def wait_for(predicate, seconds=20, what="the condition"):
    """Waits until `predicate()` gives something true, and returns it; fails after `seconds`."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.2)
    raise AssertionError(f"waited {seconds} s for {what}")
