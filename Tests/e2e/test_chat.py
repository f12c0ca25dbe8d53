"""A competition's chat (issue 41) in Chromium at 390 px: a participant's open chat page shows
another participant's message as it is written (Server-Sent Events), sends its own from the form
without leaving the page, shows each message in its own direction (Arabic right to left, Russian
left to right), and loses a message's text when an organizer deletes it. Screenshots in Russian
and Bulgarian are kept in .ci-work/screenshots/chat."""
import pathlib
import time

import pytest
import requests
from selenium.webdriver.common.by import By

from browsing import log_in, tap, wait_for
from conftest import Campus, chromium

SHOTS = pathlib.Path(__file__).resolve().parents[2] / ".ci-work" / "screenshots" / "chat"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    campus = Campus(tmp_path_factory.mktemp("chat") / "campus-data").start()
    campus.register("chat-organizer@example.org", organizer=True, first="Olga", last="Organizer")
    campus.register("chat-ann@example.org", first="Анна", last="Бегунова")
    campus.register("chat-ben@example.org", first="Ben", last="Walker")
    tokens = {name: campus.login(f"chat-{name}@example.org") for name in ("organizer", "ann", "ben")}
    yield campus, tokens
    campus.stop()



def test_the_chat_page_follows_sends_and_shows_each_direction(site, tmp_path):
    campus, tokens = site
    race = campus.call("POST", "/api/v1/competitions", token=tokens["organizer"],
                       json={"name": "Минский полумарафон", "metric": "time"}).json()["id"]
    for name in ("ann", "ben"):
        assert campus.call("POST", f"/api/v1/competitions/{race}/participants/me",
                           token=tokens[name]).status_code == 201
    # A stranger may not read it; a bad message is refused with the field named.
    assert requests.get(f"{campus.url}/api/v1/competitions/{race}/messages", timeout=10).status_code == 401
    bad = campus.call("POST", f"/api/v1/competitions/{race}/messages", token=tokens["ben"], json={"text": ""})
    assert bad.status_code == 422 and "text" in bad.text

    phone = chromium(tmp_path / "phone", phone=True)
    phone.implicitly_wait(5)
    try:
        log_in(phone, campus, "chat-ann@example.org", "correct horse")
        phone.get(f"{campus.url}/compete/{race}")
        tap(phone, phone.find_element(By.ID, "chat-link"))
        assert phone.find_element(By.ID, "no-messages").is_displayed()
        time.sleep(1)  # the live stream connects

        # Ben writes through the API: the open page shows it.
        written = campus.call("POST", f"/api/v1/competitions/{race}/messages", token=tokens["ben"],
                              json={"text": "Старт перенесли на 10:15, у главного входа"})
        assert written.status_code == 201, written.text
        items = lambda: phone.find_elements(By.CSS_SELECTOR, "#messages li.message")
        wait_for(lambda: len(items()) == 1, what="Ben's message")
        assert "10:15" in items()[0].text and "Ben Walker" in items()[0].text
        assert not phone.find_element(By.ID, "no-messages").is_displayed()

        # Ann writes in Arabic from the form: it is sent without leaving the page, once.
        field = phone.find_element(By.ID, "chat-text")
        field.send_keys("السباق يبدأ الساعة العاشرة")
        url = phone.current_url
        tap(phone, phone.find_element(By.ID, "chat-send"))
        wait_for(lambda: len(items()) == 2, what="Ann's message")
        time.sleep(1)
        assert len(items()) == 2 and phone.current_url == url and field.get_attribute("value") == ""
        direction = "return getComputedStyle(arguments[0].querySelector('.message-text')).direction"
        assert phone.execute_script(direction, items()[0]) == "ltr"
        assert phone.execute_script(direction, items()[1]) == "rtl"
        stored = campus.call("GET", f"/api/v1/competitions/{race}/messages", token=tokens["organizer"]).json()
        assert [m["text"] for m in stored["items"]][0] == "السباق يبدأ الساعة العاشرة"

        # The organizer deletes Ben's message: its text goes from the open page.
        ben_message = written.json()["id"]
        assert campus.call("DELETE", f"/api/v1/competitions/{race}/messages/{ben_message}",
                           token=tokens["organizer"]).status_code == 204
        wait_for(lambda: "deleted" in items()[0].get_attribute("class"), what="the deletion")
        assert "10:15" not in items()[0].text

        SHOTS.mkdir(parents=True, exist_ok=True)
        for language in ("ru", "bg"):
            phone.add_cookie({"name": "campus_language", "value": language, "path": "/"})
            phone.get(f"{campus.url}/compete/{race}/chat")
            assert phone.execute_script("return document.documentElement.scrollWidth") <= 390
            phone.save_screenshot(str(SHOTS / f"chat-{language}.png"))
    finally:
        phone.quit()
