"""Campus in the pocket, offline (issue 36, item 2), in Chromium at phone size: a student's own
timetable, tasks and notes stay readable with the network cut, a note written offline reaches
the server exactly once when it returns, a kept audiobook chapter plays offline, and a new
version of Campus is a new service worker. "The network cut" is both: Chromium offline (CDP
`Network.emulateNetworkConditions`) and the Campus server stopped, so that nothing can answer."""
import re
import time
from pathlib import Path

import pytest
import requests
from browsing import log_in, tap, wait_text
from conftest import Campus, chromium
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = Path(__file__).resolve().parents[2]
SHOTS = ROOT / ".ci-work" / "screenshots" / "offline"

KEPT_PAGES = "return caches.open('campus-pages').then(c => c.keys()).then(k => k.map(r => r.url));"


@pytest.fixture
def server(data_dir):
    campus = Campus(data_dir, demo=True).start()
    yield campus
    campus.stop()


@pytest.fixture
def phone(tmp_path):
    driver = chromium(tmp_path / "chromium", "--autoplay-policy=no-user-gesture-required", phone=True)
    driver.implicitly_wait(2)
    yield driver
    driver.quit()


def network(driver, online):
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.emulateNetworkConditions", {
        "offline": not online, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})


def cut(driver, server):
    network(driver, False)
    server.stop()


def restore(driver, server):
    server.start(same_port=True)
    network(driver, True)


def controlled(driver):
    WebDriverWait(driver, 20).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))


def test_a_students_timetable_tasks_and_notes_work_offline(server, phone):
    SHOTS.mkdir(parents=True, exist_ok=True)
    log_in(phone, server, "student@campus.test", "campus-student")
    token = server.login("student@campus.test", "campus-student")
    task = server.call("POST", "/api/v1/me/tasks", token=token,
                       json={"subject": "Физика", "text": "Решить задачи 1–5"}).json()
    phone.get(server.url + "/today")
    controlled(phone)
    # Staying on a page a moment keeps the student's pages: the next two weeks and the exams too.
    phone.get(server.url + "/timetable")
    WebDriverWait(phone, 60).until(lambda d: (lambda urls: sum("week=" in u for u in urls) >= 2
                                              and any("view=exams" in u for u in urls)
                                              and any(f"/tasks/{task['id']}" in u for u in urls)
                                              and any("/notes" in u for u in urls))(d.execute_script(KEPT_PAGES)))
    week = phone.find_element(By.ID, "week-title").text
    lessons = [e.text for e in phone.find_elements(By.CSS_SELECTOR, "#main .subject")][:3]
    assert lessons, "the demo student's week has lessons"

    cut(phone, server)
    for path in ["/today", "/timetable"]:
        phone.get(server.url + path)
        mark = phone.find_element(By.ID, "offline-mark")
        assert mark.is_displayed()
        assert re.search(r"\d\d:\d\d", mark.text), mark.text
    assert phone.find_element(By.ID, "week-title").text == week
    assert [e.text for e in phone.find_elements(By.CSS_SELECTOR, "#main .subject")][:3] == lessons
    phone.save_screenshot(str(SHOTS / "week-offline.png"))
    tap(phone, phone.find_element(By.ID, "next-week"))
    wait_text(phone, (By.ID, "offline-mark"), ":")
    assert phone.find_element(By.ID, "week-title").text != week
    tap(phone, phone.find_element(By.ID, "next-week"))
    wait_text(phone, (By.ID, "offline-mark"), ":")
    phone.get(server.url + "/timetable/mine/tasks")
    assert "Решить задачи 1–5" in phone.find_element(By.ID, "main").text
    phone.get(server.url + "/timetable/groups/151004?page=not-kept")
    assert phone.find_element(By.ID, "offline-page").is_displayed()

    # A note written offline waits on the device, said on the page…
    phone.get(server.url + "/timetable")
    tap(phone, next(e for e in phone.find_elements(By.CSS_SELECTOR, "#main a.note-link") if e.is_displayed()))
    phone.find_element(By.ID, "note-text").send_keys("Взять калькулятор")
    tap(phone, phone.find_element(By.ID, "save-note"))
    wait_text(phone, (By.ID, "outbox"), "Взять калькулятор")
    assert phone.find_element(By.ID, "offline-mark").is_displayed()
    phone.save_screenshot(str(SHOTS / "note-waiting.png"))

    # …and reaches the server once when the network returns.
    restore(phone, server)
    phone.get(server.url + "/today")

    def notes():
        return [n for n in server.call("GET", "/api/v1/me/notes", token=token).json()["items"]
                if n["text"] == "Взять калькулятор"]
    deadline = time.monotonic() + 20
    while not notes() and time.monotonic() < deadline:
        time.sleep(0.3)
    assert len(notes()) == 1
    phone.get(server.url + "/timetable")
    phone.get(server.url + "/today")
    time.sleep(1.5)
    assert len(notes()) == 1
    assert phone.execute_script("return document.querySelectorAll('#outbox li').length") == 0


def test_a_refused_offline_change_is_said_with_its_text(server, phone):
    log_in(phone, server, "student@campus.test", "campus-student")
    token = server.login("student@campus.test", "campus-student")
    task = server.call("POST", "/api/v1/me/tasks", token=token, json={"subject": "Химия", "text": "Лабораторная"}).json()
    phone.get(server.url + f"/timetable/mine/tasks/{task['id']}")
    controlled(phone)
    phone.get(server.url + f"/timetable/mine/tasks/{task['id']}")
    # The task is deleted on another device; then, offline, it is changed on this one.
    assert server.call("DELETE", f"/api/v1/me/tasks/{task['id']}", token=token).status_code == 204
    cut(phone, server)
    text = phone.find_element(By.CSS_SELECTOR, "#task-text")
    text.clear()
    text.send_keys("Лабораторная №3, отчёт")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#task-form button[type=submit]"))
    wait_text(phone, (By.ID, "outbox"), "отчёт")
    restore(phone, server)
    phone.get(server.url + "/today")
    wait_text(phone, (By.CSS_SELECTOR, "#outbox .refused"), "Лабораторная №3, отчёт")
    phone.save_screenshot(str(SHOTS / "change-refused.png"))
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#outbox .refused button"))
    WebDriverWait(phone, 10).until(lambda d: not d.find_elements(By.CSS_SELECTOR, "#outbox .refused"))


def test_a_kept_chapter_plays_offline(server, phone):
    log_in(phone, server, "student@campus.test", "campus-student")
    phone.get(server.url + "/listen/audiobooks")
    controlled(phone)
    phone.find_element(By.LINK_TEXT, "A Short Guide to the Campus").click()
    keep = phone.find_element(By.CSS_SELECTOR, "button[data-keep]")
    title = keep.find_element(By.XPATH, "ancestor::tr").find_element(By.CSS_SELECTOR, "a.title").text
    tap(phone, keep)
    WebDriverWait(phone, 30).until(lambda d: d.find_element(By.CSS_SELECTOR, "button[data-keep]")
                                   .get_attribute("aria-pressed") == "true")
    phone.get(server.url + "/listen")
    wait_text(phone, (By.ID, "kept-items"), title)

    cut(phone, server)
    phone.get(server.url + "/listen")
    wait_text(phone, (By.ID, "kept-items"), title)
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#kept-list [data-play-kept]"))
    WebDriverWait(phone, 20).until(lambda d: d.execute_script(
        "const a = document.getElementById('player-audio'); return !a.paused && a.currentTime > 1.5;"))
    assert phone.find_element(By.ID, "player-title").text == title
    assert not phone.find_element(By.ID, "player-error").is_displayed()
    phone.save_screenshot(str(SHOTS / "kept-playing.png"))

    # Removed from the device, it is gone from the list.
    restore(phone, server)
    phone.get(server.url + "/listen")
    tap(phone, phone.find_element(By.CSS_SELECTOR, "#kept-list button[data-keep]"))
    WebDriverWait(phone, 10).until(lambda d: not d.find_element(By.ID, "kept-items").is_displayed())


def test_a_new_version_is_a_new_service_worker(server):
    """The worker names every static file with the digest pages link it with, so a new version
    of a file is a new worker (the browser compares its bytes on each visit: `no-cache`)."""
    worker = requests.get(server.url + "/service-worker.js", timeout=10)
    assert worker.status_code == 200
    assert worker.headers["Content-Type"].startswith("text/javascript")
    assert worker.headers["Cache-Control"] == "no-cache"
    page = requests.get(server.url + "/", timeout=10).text
    linked = re.findall(r'(?:href|src)="(/static/[^"]+\?v=[0-9a-f]+)"', page)
    assert len(linked) >= 3
    for link in linked:
        assert f'"{link}"' in worker.text, link
    assert re.match(r'const VERSION = "[0-9a-f]{12}";', worker.text)
