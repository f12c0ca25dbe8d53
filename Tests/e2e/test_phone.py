"""Campus at phone width (issue 36, item 1): at 390×844, in every language, a visitor's, a
student's, an organizer's and an admin's main pages do not scroll sideways, the four sections
are a tab bar inside the screen, and the mini player never covers the end of the page. One
browser for every page; the screenshots are kept in .ci-work/screenshots/phone to look at."""
import re
from pathlib import Path

import pytest
from conftest import chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".ci-work" / "screenshots" / "phone"
LANGUAGES = ["ru", "uk", "bg", "be", "en"]

VISITOR = ["/", "/timetable", "/timetable/groups/151004", "/timetable/teachers", "/listen", "/compete", "/login",
           "/register", "/about"]
STUDENT = ["/today", "/timetable/mine", "/timetable/groups/151004", "/timetable/mine/tasks",
           "/timetable/mine/tasks/new", "/timetable/mine/electives", "/listen", "/listen/audiobooks", "/listen/radio",
           "/compete", "/compete/history", "/compete/stats", "/compete/friends", "/profile", "/profile/two-factor"]
ORGANIZER = ["/compete", "/compete/mine"]
DESKTOP = ["/", "/timetable/groups/151004", "/listen", "/compete"]
ADMIN = ["/admin/users", "/admin/audit", "/admin", "/listen"]

MEASURE = """
const tabs = [...document.querySelectorAll('nav.sections a')].map(a => a.getBoundingClientRect());
return {
  scrollWidth: document.documentElement.scrollWidth,
  innerWidth: window.innerWidth,
  innerHeight: window.innerHeight,
  tabsInside: tabs.length > 0 && tabs.every(r => r.left >= -1 && r.right <= window.innerWidth + 1
                                             && r.top >= 0 && r.bottom <= window.innerHeight + 1 && r.height >= 44),
  wide: [...document.querySelectorAll('main *')].filter(e => e.getBoundingClientRect().right > window.innerWidth + 1
      && getComputedStyle(e).position !== 'fixed' && !e.closest('.tabs, .scrolls, table.grid'))
      .slice(0, 3).map(e => e.tagName + '.' + e.className + ' ' + (e.textContent || '').trim().slice(0, 40)),
};
"""

COVERED = """
window.scrollTo(0, document.documentElement.scrollHeight);
const footer = document.querySelector('footer.footer');
const last = footer.getBoundingClientRect();
const covers = [...document.querySelectorAll('#player, nav.sections')]
  .filter(e => !e.hidden && getComputedStyle(e).display !== 'none')
  .map(e => e.getBoundingClientRect())
  .filter(r => r.height > 0 && r.top < last.bottom - 1 && r.bottom > last.top + 1);
return covers.length;
"""


@pytest.fixture(scope="module")
def phone(tmp_path_factory):
    driver = chromium(tmp_path_factory.mktemp("chromium-phone"), "--autoplay-policy=no-user-gesture-required",
                      phone=True)
    driver.implicitly_wait(2)
    yield driver
    driver.quit()


def sign_in(driver, server, email, password):
    driver.delete_all_cookies()
    driver.get(server.url + "/login")
    driver.find_element(By.ID, "email").send_keys(email)
    driver.find_element(By.ID, "password").send_keys(password)
    driver.find_element(By.ID, "login-submit").click()
    WebDriverWait(driver, 10).until(expected_conditions.presence_of_element_located((By.ID, "logout")))


def check_pages(driver, server, who, pages, problems):
    for language in LANGUAGES:
        driver.add_cookie({"name": "campus_language", "value": language, "path": "/"})
        for path in pages:
            driver.get(server.url + path)
            measured = driver.execute_script(MEASURE)
            name = f"{who}-{language}-{path.strip('/').replace('/', '_') or 'home'}"
            if language in ("ru", "bg"):
                driver.save_screenshot(str(SHOTS / f"{name}.png"))
            if measured["scrollWidth"] > measured["innerWidth"]:
                problems.append(f"{name}: scrolls sideways ({measured['scrollWidth']} > 390) {measured['wide']}")
            if not measured["tabsInside"]:
                problems.append(f"{name}: a section tab is outside the screen or under 44 px")
            if driver.execute_script(COVERED):
                problems.append(f"{name}: the end of the page is covered")


def test_every_page_fits_a_phone(campus, phone):
    SHOTS.mkdir(parents=True, exist_ok=True)
    problems = []
    phone.get(campus.url + "/")
    assert phone.execute_script("return window.innerWidth") == 390
    check_pages(phone, campus, "visitor", VISITOR, problems)
    for who, email, password, pages in [
        ("student", "student@campus.test", "campus-student", STUDENT),
        ("organizer", "organizer@campus.test", "campus-organizer", ORGANIZER),
        ("admin", "admin@campus.test", "campus-admin", ADMIN),
    ]:
        sign_in(phone, campus, email, password)
        if who == "student":
            # An audiobook's page: its chapters, with their actions, and the stars.
            phone.get(campus.url + "/listen/audiobooks")
            pages = pages + [phone.find_element(By.CSS_SELECTOR, ".tile a").get_attribute("href").replace(campus.url, "")]
            # A competition's friends view and a participant's page (to follow them).
            phone.get(campus.url + "/compete/history")
            competition = phone.find_element(By.CSS_SELECTOR, "#joined a.competition-name").get_attribute("href")
            phone.get(competition + "?view=friends")
            person = phone.find_element(By.CSS_SELECTOR, "#ranking a[href*='/compete/people/']").get_attribute("href")
            pages = pages + [competition.replace(campus.url, "") + "?view=friends", person.replace(campus.url, "")]
            # The autumn run's categories: a category's tab with the team table below.
            pages = pages + [competition.replace(campus.url, "") + "?category=Women"]
        if who == "organizer":
            # A competition as its organizer sees it: the participants as cards, with their forms.
            phone.get(campus.url + "/compete/mine")
            links = [a.get_attribute("href") for a in phone.find_elements(By.CSS_SELECTOR, "#main a[href*='/compete/']")]
            pages = pages + [next(link for link in links if re.search(r"/compete/\d+$", link)).replace(campus.url, "")]
        check_pages(phone, campus, who, pages, problems)
    assert not problems, "\n".join(problems)


def test_the_desktop_layout_stays_whole(campus, tmp_path):
    """At 1280 px the pages keep their desktop layout: the sections in the top bar, nothing sideways."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    driver = chromium(tmp_path / "chromium-desktop", "--window-size=1280,900")
    try:
        sign_in(driver, campus, "student@campus.test", "campus-student")
        for language in ("ru", "bg"):
            driver.add_cookie({"name": "campus_language", "value": language, "path": "/"})
            for path in DESKTOP:
                driver.get(campus.url + path)
                measured = driver.execute_script(
                    "const nav = document.querySelector('nav.sections').getBoundingClientRect();"
                    "return {wide: document.documentElement.scrollWidth > window.innerWidth, top: nav.top};")
                driver.save_screenshot(str(SHOTS / f"desktop-{language}-{path.strip('/').replace('/', '_') or 'home'}.png"))
                assert not measured["wide"], path
                assert measured["top"] < 80, f"{path}: the sections are not in the top bar at 1280 px"
    finally:
        driver.quit()


def test_the_mini_player_never_covers_the_page_end(campus, phone):
    sign_in(phone, campus, "student@campus.test", "campus-student")
    phone.add_cookie({"name": "campus_language", "value": "bg", "path": "/"})
    phone.get(campus.url + "/listen/radio")
    phone.find_element(By.CSS_SELECTOR, "[data-play-station]").click()
    WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "player").is_displayed())
    for path in ["/listen/radio", "/about", "/profile"]:
        phone.execute_script("window.location.href = arguments[0]", campus.url + path)
        WebDriverWait(phone, 10).until(lambda d: d.execute_script("return document.readyState") == "complete")
        WebDriverWait(phone, 10).until(lambda d: d.find_element(By.ID, "player").is_displayed())
        phone.save_screenshot(str(SHOTS / f"player-bg-{path.strip('/').replace('/', '_')}.png"))
        assert phone.execute_script(COVERED) == 0, path
        assert phone.execute_script(MEASURE)["tabsInside"], path
