"""Accessibility (issue 36, item 4): axe-core finds no serious or critical violation on the main pages, in Russian, at phone and at desktop width; every control
of the player has a name. One browser for every page. axe-selenium-python runs axe-core 4 as
axe-playwright-python bundles it (scripts/install-test-tools; its own axe-core 3.1 reads no CSS
colour written with color-mix() and calls every such contrast a failure)."""
import importlib.util
import re
from pathlib import Path

import pytest
from axe_selenium_python import Axe
from browsing import log_in, tap
from conftest import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

SERIOUS = ("serious", "critical")
AXE = Path(importlib.util.find_spec("axe_playwright_python").submodule_search_locations[0]) / "axe.min.js"


@pytest.fixture(scope="module")
def driver(tmp_path_factory):
    browser = chromium(tmp_path_factory.mktemp("chromium-axe"), "--autoplay-policy=no-user-gesture-required")
    browser.implicitly_wait(2)
    yield browser
    browser.quit()


def violations(driver, where):
    axe = Axe(driver, script_url=str(AXE))
    axe.inject()
    found = axe.run()["violations"]
    return [f"{where}: {v['id']} ({v['impact']}) {v['help']}: "
            + "; ".join(node["html"][:120] for node in v["nodes"][:3])
            for v in found if v["impact"] in SERIOUS]


def check(driver, campus, paths, problems, language="ru"):
    for width, height in [(390, 844), (1280, 900)]:
        driver.set_window_size(width, height)
        for path in paths:
            driver.get(campus.url + path)
            problems += violations(driver, f"{path} at {width}px")


def test_main_pages_have_no_serious_violations(campus, driver):
    problems = []
    driver.get(campus.url + "/")
    driver.add_cookie({"name": "campus_language", "value": "ru", "path": "/"})
    check(driver, campus, ["/", "/login", "/timetable/groups/151004"], problems)

    driver.delete_all_cookies()
    log_in(driver, campus, "student@campus.test", "campus-student")
    driver.add_cookie({"name": "campus_language", "value": "ru", "path": "/"})
    token = campus.login("student@campus.test", "campus-student")
    task = campus.call("POST", "/api/v1/me/tasks", token=token, json={"subject": "Физика", "text": "Задачи 1–5"}).json()
    check(driver, campus, ["/today", "/timetable", f"/timetable/mine/tasks/{task['id']}", "/listen"], problems)

    # The player, open, while a chapter plays: every control has a name.
    driver.set_window_size(390, 844)
    driver.get(campus.url + "/listen/audiobooks")
    tap(driver, driver.find_element(By.CSS_SELECTOR, ".tile a"))
    tap(driver, driver.find_element(By.ID, "play-all"))
    WebDriverWait(driver, 20).until(lambda d: d.find_element(By.ID, "player").is_displayed())
    tap(driver, driver.find_element(By.ID, "player-expand"))
    problems += violations(driver, "the player, open")
    unnamed = driver.execute_script("""
      return [...document.querySelectorAll('#player button, #player input, #player select, #player a')]
        .filter(e => !e.hidden && e.offsetParent !== null)
        .filter(e => !(e.getAttribute('aria-label') || e.textContent.trim() || (e.labels && e.labels.length)))
        .map(e => e.outerHTML.slice(0, 100));""")
    assert not unnamed, unnamed

    driver.delete_all_cookies()
    log_in(driver, campus, "organizer@campus.test", "campus-organizer")
    driver.add_cookie({"name": "campus_language", "value": "ru", "path": "/"})
    driver.get(campus.url + "/compete/mine")
    links = [a.get_attribute("href") for a in driver.find_elements(By.CSS_SELECTOR, "#main a[href*='/compete/']")]
    competition = next(link for link in links if re.search(r"/compete/\d+$", link))
    check(driver, campus, [competition.replace(campus.url, "")], problems)
    assert not problems, "\n".join(problems)
