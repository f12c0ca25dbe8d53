"""The web app in a real browser: Debian's Chromium driven by Selenium."""
import json
import subprocess
import time
from pathlib import Path

import requests
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from browsing import fill, log_in, wait_text


def test_register_log_in_edit_profile_log_out(browser, any_database, tmp_path):
    site = any_database.url
    browser.get(site + "/")
    browser.find_element(By.LINK_TEXT, "Register").click()

    # A first try with a short password is explained next to the field, and the rest is kept.
    fill(browser, "firstName", "Мария")
    fill(browser, "lastName", "Kowalska")
    fill(browser, "email", "Maria@Example.org")
    fill(browser, "password", "short")
    fill(browser, "confirmation", "shorter")
    browser.find_element(By.ID, "organizer").click()
    browser.find_element(By.ID, "register-submit").click()
    wait_text(browser, (By.CLASS_NAME, "field-error"), "at least 8 characters")
    # Every field's problem is said at once: the password too short and the two not the same.
    errors = [element.text for element in browser.find_elements(By.CLASS_NAME, "field-error")]
    assert any("not the same" in error for error in errors), errors
    assert browser.find_element(By.ID, "firstName").get_attribute("value") == "Мария"
    assert browser.find_element(By.ID, "organizer").is_selected()

    # The repeated password must match (seed 002), and a password field shows what was typed.
    fill(browser, "password", "a good long password")
    fill(browser, "confirmation", "a good long pasword")
    browser.find_element(By.ID, "register-submit").click()
    wait_text(browser, (By.CLASS_NAME, "field-error"), "not the same")
    password = browser.find_element(By.ID, "password")
    password.send_keys("a good long password")
    reveal = browser.find_element(By.CSS_SELECTOR, "#password + button.reveal")
    reveal.click()
    assert password.get_attribute("type") == "text" and reveal.get_attribute("aria-pressed") == "true"
    reveal.click()
    assert password.get_attribute("type") == "password"
    fill(browser, "confirmation", "a good long password")
    browser.find_element(By.ID, "register-submit").click()
    # Registering signs the new user in, on the page they were going to (home).
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your account is ready")
    assert "Hello, Мария!" in browser.find_element(By.TAG_NAME, "h1").text
    assert browser.get_cookie("campus_session")

    # Logged out and in again with the new account.
    browser.find_element(By.ID, "logout").click()
    browser.switch_to.alert.accept()
    wait_text(browser, (By.CLASS_NAME, "flash"), "logged out")
    browser.get(site + "/login")
    fill(browser, "email", "maria@example.org")
    fill(browser, "password", "a good long password")
    browser.find_element(By.ID, "login-submit").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Welcome, Мария")
    assert "Hello, Мария!" in browser.find_element(By.TAG_NAME, "h1").text

    browser.find_element(By.LINK_TEXT, "Profile").click()
    fill(browser, "lastName", "Nowak")
    fill(browser, "group", "151004")
    Select(browser.find_element(By.ID, "subgroup")).select_by_value("2")
    browser.find_element(By.ID, "profile-save").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your profile is saved")
    assert browser.find_element(By.ID, "profile-name").text == "Мария Nowak"
    assert browser.find_element(By.ID, "profile-group").text == "151004"
    assert Select(browser.find_element(By.ID, "subgroup")).first_selected_option.text == "2"
    assert browser.find_element(By.CLASS_NAME, "role").text.lower() == "organizer"

    # The session cookie is HttpOnly and SameSite.
    session = browser.get_cookie("campus_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"

    # What the browser saved is what the API returns.
    token = any_database.login("maria@example.org", "a good long password")
    me = any_database.call("GET", "/api/v1/me", token=token).json()
    assert (me["lastName"], me["group"], me["subgroup"], me["role"]) == ("Nowak", "151004", 2, "organizer")

    # Logging out asks first (seed 002's dialog): dismissed, nothing happens.
    browser.find_element(By.ID, "logout").click()
    browser.switch_to.alert.dismiss()
    assert browser.find_elements(By.ID, "logout")
    browser.find_element(By.ID, "logout").click()
    browser.switch_to.alert.accept()
    wait_text(browser, (By.CLASS_NAME, "flash"), "You are logged out")
    assert browser.find_elements(By.ID, "login-link")
    browser.get(site + "/profile")
    assert "/login" in browser.current_url

    browser.save_screenshot(str(tmp_path / "logged-out.png"))


def test_wrong_password_and_reset(browser, campus):
    campus.register("ann@example.org")
    browser.get(campus.url + "/login")
    fill(browser, "email", "ann@example.org")
    fill(browser, "password", "wrong password")
    browser.find_element(By.ID, "login-submit").click()
    wait_text(browser, (By.ID, "login-error"), "wrong")

    browser.find_element(By.LINK_TEXT, "Forgot your password?").click()
    fill(browser, "email", "ann@example.org")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_text(browser, (By.ID, "reset-sent"), "on its way")

    # The link goes through the outbox; without a mail server, each message is a file in the data
    # directory's mail folder (never the log: a reset link there would open the account).
    mail = ""
    for _ in range(50):
        files = sorted((campus.data_dir / "mail").glob("*.eml"))
        if files:
            mail = files[-1].read_text()
            break
        time.sleep(0.1)
    assert "password/reset?token=" not in campus.read_log()
    token = mail.split("password/reset?token=")[1].split()[0]
    browser.get(campus.url + "/password/reset?token=" + token)
    fill(browser, "password", "new password 1")
    fill(browser, "confirmation", "new password 1")
    browser.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Log in with the new one")
    campus.login("ann@example.org", "new password 1")


def test_forms_without_the_csrf_token_are_refused(campus):
    response = requests.post(campus.url + "/login", data={"email": "student@campus.test",
                                                          "password": "campus-student"},
                             headers={"Accept": "text/html"}, allow_redirects=False)
    assert response.status_code == 403
    assert "did not come from Campus" in response.text
    assert "campus_session" not in response.cookies


def test_phone_width_and_dark_mode(browser, campus):
    browser.set_window_size(375, 812)
    log_in(browser, campus, "student@campus.test", "campus-student")
    for path in ("/", "/profile", "/timetable", "/api", "/compete", "/compete/2", "/compete/history",
                 "/compete/stats", "/compete/records"):
        browser.get(campus.url + path)
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{path} is wider than a phone screen by {overflow}px"
    light = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    dark = browser.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert light != dark
    red, green, blue = [int(x) for x in dark[dark.index("(") + 1:dark.index(")")].split(",")[:3]]
    assert red + green + blue < 150, dark


def test_admin_changes_a_role(browser, campus):
    campus.register("bob@example.org", first="Bob", last="Builder")
    log_in(browser, campus, "admin@campus.test", "campus-admin")
    browser.find_element(By.LINK_TEXT, "Accounts").click()
    row = next(r for r in browser.find_elements(By.CSS_SELECTOR, "table.users tbody tr") if "Bob Builder" in r.text)
    Select(row.find_element(By.TAG_NAME, "select")).select_by_value("organizer")
    row.find_element(By.TAG_NAME, "button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Bob Builder is now an organizer")
    token = campus.login("bob@example.org")
    assert campus.call("GET", "/api/v1/me", token=token).json()["role"] == "organizer"


def test_a_groups_week_in_the_browser(browser, campus):
    """Search, the week grid with type colours and windows, week switching, the subgroup toggle,
    past lessons dimmed, links to teachers and rooms, the feed link, and the day list on a phone."""
    import datetime

    term = campus.call("GET", "/api/v1/groups/151004").json()["term"]
    start = datetime.date.fromisoformat(term["lessonsStart"])
    week = start + datetime.timedelta(days=21 - start.weekday())

    browser.get(campus.url + "/timetable")
    fill(browser, "timetable-search", "151004")
    browser.find_element(By.CSS_SELECTOR, "form.search button").click()
    wait_text(browser, (By.CSS_SELECTOR, ".results"), "151004")
    browser.find_element(By.LINK_TEXT, "151004").click()
    wait_text(browser, (By.ID, "schedule-title"), "Group 151004")

    browser.get(campus.url + f"/timetable/groups/151004?week={week.isoformat()}&view=grid")
    title = browser.find_element(By.ID, "week-title").text
    assert str(week.day) in title
    assert browser.find_element(By.ID, "study-week").text.startswith("Study week ")
    grid = browser.find_element(By.ID, "week-grid")
    lessons = grid.find_elements(By.CSS_SELECTOR, ".lesson")
    assert len(lessons) > 20
    # Colours by type: lecture blue, practice green, lab orange.
    colours = {}
    for lesson in lessons:
        kind = lesson.find_element(By.CSS_SELECTOR, ".type").text
        colours[kind] = lesson.value_of_css_property("border-left-color")
    assert colours["ЛК"] == "rgba(59, 125, 221, 1)"
    assert colours["ПЗ"] == "rgba(46, 158, 91, 1)"
    assert colours["ЛР"] == "rgba(224, 138, 30, 1)"
    # Windows between lessons are grey gaps.
    assert grid.find_elements(By.CSS_SELECTOR, "td.window")
    # A past week is greyed (not faded: its text keeps its contrast).
    if week + datetime.timedelta(days=6) < datetime.date.today():
        assert all("past" in lesson.get_attribute("class") for lesson in lessons)
        assert lessons[0].value_of_css_property("background-color") == "rgba(246, 247, 249, 1)"
        subject = lessons[0].find_element(By.CSS_SELECTOR, ".subject")
        assert subject.value_of_css_property("color") == "rgba(93, 102, 114, 1)"

    # Subgroup 1 hides subgroup 2's lessons and keeps the whole group's.
    browser.find_element(By.LINK_TEXT, "Subgroup 1").click()
    wait_text(browser, (By.CSS_SELECTOR, ".subgroup-choice[aria-current='true']"), "Subgroup 1")
    subgroups = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#week-grid .subgroup")]
    assert subgroups and all(text == "sg 1" for text in subgroups)
    assert len(browser.find_elements(By.CSS_SELECTOR, "#week-grid .lesson")) < len(lessons)

    # Next and previous weeks.
    browser.find_element(By.ID, "next-week").click()
    wait_text(browser, (By.ID, "week-title"), str((week + datetime.timedelta(days=7)).day))
    browser.find_element(By.ID, "previous-week").click()
    wait_text(browser, (By.ID, "week-title"), str(week.day))

    # The feed, and links from a lesson to its teacher's and room's schedules.
    assert browser.find_element(By.ID, "subscribe").get_attribute("href").endswith("/api/v1/groups/151004/calendar.ics")
    teacher = browser.find_element(By.CSS_SELECTOR, "#week-grid .lesson a.teacher")
    name = teacher.text
    teacher.click()
    wait_text(browser, (By.ID, "schedule-title"), name.split()[0])
    # The teacher's page opens on this week, which may have none of their lessons (a Sunday, a
    # holiday): their lessons in the week the group's page showed name the groups.
    browser.get(browser.current_url.split("?")[0] + f"?week={week.isoformat()}")
    assert browser.find_elements(By.CSS_SELECTOR, ".lesson a.group")
    browser.back()
    browser.back()
    room = browser.find_element(By.CSS_SELECTOR, "#week-grid .lesson a.room")
    room_name = room.text
    room.click()
    wait_text(browser, (By.ID, "schedule-title"), "Room " + room_name)

    # On a phone the week is a list of days.
    browser.set_window_size(375, 812)
    browser.get(campus.url + f"/timetable/groups/151004?week={week.isoformat()}")
    assert not browser.find_element(By.ID, "week-grid").is_displayed()
    days = browser.find_elements(By.CSS_SELECTOR, "#day-list .day")
    assert len(days) == 6
    assert browser.find_elements(By.CSS_SELECTOR, "#day-list .window-bar")
    overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
    assert overflow <= 0


def test_teacher_and_room_lists(browser, campus):
    # Every word of the search begins a part of the name: "смол ол" is Смолякова Ольга.
    browser.get(campus.url + "/timetable/teachers?q=смол+ол")
    names = [link.find_element(By.TAG_NAME, "strong").text for link in browser.find_elements(By.CSS_SELECTOR, ".grid-list a")]
    assert len(names) == 1 and names[0].startswith("Смолякова Ольга")
    browser.get(campus.url + "/timetable/rooms?sections=floor")
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".list-section h2")]
    assert "Building 4, floor 2" in titles
    browser.get(campus.url + "/timetable/groups?q=поит&sections=flow")
    titles = [h.text for h in browser.find_elements(By.CSS_SELECTOR, ".list-section h2")]
    assert "1510" in titles


def test_favorites_today_at_a_glance_and_my_calendar(browser, campus):
    """A student stars a teacher and sees their next lesson on the home page and on /today (which a
    phone can keep on its home screen), then sets the reminders of their own calendar feed and
    gives it a new address."""
    log_in(browser, campus, "student@campus.test", "campus-student")

    browser.get(campus.url + "/timetable/teachers/i-kirinovich")
    star = browser.find_element(By.ID, "favorite")
    assert star.get_attribute("aria-pressed") == "false" and "Add to favorites" in star.text
    star.click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Added to your favorites.")
    assert browser.find_element(By.ID, "favorite").get_attribute("aria-pressed") == "true"

    for path in ("/", "/today"):
        browser.get(campus.url + path)
        mine = browser.find_element(By.CSS_SELECTOR, ".glance-mine").text
        assert "My timetable" in mine and "151004" in mine
        entry = browser.find_element(By.CSS_SELECTOR, ".glance-favorites .favorite-entry").text
        assert "Киринович" in entry
        assert any(word in entry.lower() for word in ("next", "now", "no more lessons this term.")), entry
    manifest = requests.get(campus.url + "/manifest.webmanifest", timeout=10)
    assert manifest.headers["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/today" and manifest.json()["display"] == "standalone"

    browser.get(campus.url + "/timetable/mine")
    address = browser.find_element(By.ID, "calendar-url").get_attribute("value")
    Select(browser.find_element(By.ID, "reminderMinutes")).select_by_value("15")
    browser.find_element(By.ID, "save-reminders").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "reminders are saved")
    feed = requests.get(address, timeout=10)
    assert feed.status_code == 200 and "TRIGGER:-PT15M" in feed.text
    browser.find_element(By.ID, "new-address").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "new address")
    assert browser.find_element(By.ID, "calendar-url").get_attribute("value") != address
    assert requests.get(address, timeout=10).status_code == 404
    # Removing the favorite from the list.
    browser.find_element(By.CSS_SELECTOR, "#favorites button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Removed from your favorites.")
    assert "Киринович" not in browser.find_element(By.ID, "favorites").text


def test_a_note_on_a_lesson_is_marked_where_the_lesson_is(browser, campus, tmp_path):
    """A student writes a note on one day of a lesson and sees it on the lesson in the week grid;
    another student does not."""
    log_in(browser, campus, "student@campus.test", "campus-student")

    browser.get(campus.url + "/timetable/groups/151004?view=grid")
    link = browser.find_element(By.CSS_SELECTOR, "#week-grid .lesson .note-link")
    subject = link.find_element(By.XPATH, "..").find_element(By.CSS_SELECTOR, ".subject").text
    link.click()
    wait_text(browser, (By.ID, "note-subject"), "")
    fill(browser, "note-text", "Ask about the coursework")
    browser.find_element(By.ID, "only-this-day").click()
    browser.find_element(By.ID, "save-note").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your note is saved.")
    assert "Ask about the coursework" in browser.find_element(By.ID, "notes").text
    browser.find_element(By.ID, "back").click()
    marked = browser.find_elements(By.CSS_SELECTOR, "#week-grid .lesson .my-note")
    assert len(marked) == 1 and "Ask about the coursework" in marked[0].text
    lesson = marked[0].find_element(By.XPATH, "..")
    assert lesson.find_element(By.CSS_SELECTOR, ".subject").text == subject

    # Another account sees the lesson without the note.
    token = campus.login("organizer@campus.test", "campus-organizer")
    page = campus.call("GET", "/timetable/groups/151004", headers={"Cookie": f"campus_session={token}"}).text
    assert "Ask about the coursework" not in page

    # The old app's notes, kept by slot, come in from a file: the slot of the lesson noted above,
    # and one no lesson has.
    student = campus.login("student@campus.test", "campus-student")
    noted = campus.call("GET", "/api/v1/me/notes", token=student).json()["items"][0]
    week = campus.call("GET", "/api/v1/me/schedule", token=student,
                       params={"from": noted["date"], "to": noted["date"]}).json()
    day = week["days"][0]
    starts = sorted({lesson["start"] for lesson in day["lessons"]})
    lesson = next(lesson for lesson in day["lessons"] if lesson["lessonId"] == noted["lessonId"])
    parity = "odd" if day["week"] % 2 == 1 else "even"
    slot = f"{parity}_{day['weekday']}_{starts.index(lesson['start']) + 1}"
    notes = tmp_path / "notes.json"
    notes.write_text(json.dumps({slot: "From the old app", "even_7_9": "Sunday"}), encoding="utf-8")
    browser.get(campus.url + "/timetable/mine")
    browser.find_element(By.ID, "notes-file").send_keys(str(notes))
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "import-notes-button"))
    flash = browser.find_element(By.CLASS_NAME, "flash").text
    assert "even_7_9" in flash, flash
    texts = [note["text"] for note in campus.call("GET", "/api/v1/me/notes", token=student).json()["items"]]
    assert ("From the old app" in texts) == ("1 note is imported." in flash), (flash, texts)


def test_a_nickname_for_a_group_and_my_own_lesson_colours(browser, campus):
    """A student names a group their own way and colours lectures their own way; both show on
    their pages only."""
    log_in(browser, campus, "student@campus.test", "campus-student")
    browser.get(campus.url + "/timetable/groups/010101")
    browser.find_element(By.CSS_SELECTOR, ".nickname-box summary").click()
    fill(browser, "nickname", "Соседи")
    browser.find_element(By.ID, "save-nickname").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "only you see it")
    assert browser.find_element(By.ID, "schedule-title").text == "Group 010101 · Соседи"

    browser.get(campus.url + "/timetable/mine")
    assert "Соседи" in browser.find_element(By.ID, "nicknames").text
    lecture = browser.find_element(By.ID, "colour-lt-d09bd09a")
    browser.execute_script("arguments[0].value = '#aa00ff'", lecture)
    lecture.find_element(By.XPATH, "following-sibling::button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "only your pages show it")
    browser.get(campus.url + "/timetable/groups/151004?view=grid")
    lectures = [lesson for lesson in browser.find_elements(By.CSS_SELECTOR, "#week-grid .lesson.lt-d09bd09a")]
    assert lectures and lectures[0].value_of_css_property("border-left-color") == "rgba(170, 0, 255, 1)"

    token = campus.login("organizer@campus.test", "campus-organizer")
    page = campus.call("GET", "/timetable/groups/010101", headers={"Cookie": f"campus_session={token}"}).text
    assert "Соседи" not in page
    css = campus.call("GET", "/timetable/mine/lesson-types.css", headers={"Cookie": f"campus_session={token}"}).text
    assert "#aa00ff" not in css


def test_favorites_saved_together_as_one_schedule(browser, campus):
    """Two starred groups, ticked together and named, become a schedule of their own with a week
    of both groups' lessons."""
    log_in(browser, campus, "student@campus.test", "campus-student")
    for group in ("010101", "913801"):
        browser.get(campus.url + f"/timetable/groups/{group}")
        browser.find_element(By.ID, "favorite").click()
        wait_text(browser, (By.CLASS_NAME, "flash"), "Added to your favorites.")
    browser.get(campus.url + "/timetable/mine")
    # Clicked as a script does: the player bar at the bottom of the window may cover them.
    for box in browser.find_elements(By.CSS_SELECTOR, "#save-schedule input[type=checkbox]"):
        browser.execute_script("arguments[0].click()", box)
    fill(browser, "schedule-name", "Friends")
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "save-schedule-button"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "“Friends” is saved.")
    assert browser.find_element(By.ID, "schedule-title").text == "Friends"
    groups = {link.text for link in browser.find_elements(By.CSS_SELECTOR, ".lesson .group")}
    assert {"010101", "913801"} & groups, groups
    feed = browser.find_element(By.ID, "subscribe").get_attribute("href")
    assert requests.get(feed, timeout=10).text.startswith("BEGIN:VCALENDAR")

    # Kept in my schedule: the timetable opens on my group's week with the friends' lessons in it.
    browser.get(campus.url + "/timetable/mine")
    toggle = browser.find_element(By.CSS_SELECTOR, "#saved-schedules .in-my-schedule")
    assert toggle.get_attribute("aria-pressed") == "false"
    browser.execute_script("arguments[0].click()", toggle)
    wait_text(browser, (By.CLASS_NAME, "flash"), "“Friends” is in your schedule.")
    browser.find_element(By.LINK_TEXT, "Timetable").click()
    wait_text(browser, (By.ID, "schedule-title"), "My schedule")
    assert "Friends" in browser.find_element(By.CSS_SELECTOR, ".schedule-who .muted").text
    token = campus.login("student@campus.test", "campus-student")
    week = campus.call("GET", "/api/v1/me/schedule", token=token).json()
    groups = {group for day in week["days"] for lesson in day["lessons"] for group in lesson["groups"]}
    assert {"151004", "010101", "913801"} <= groups, groups
    browser.find_element(By.ID, "find-schedule").click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "timetable-search")))


def test_a_student_answers_a_teachers_card(browser, campus):
    """A student says whether a teacher marks attendance and what they are like; the card counts
    it, and an admin can hide the description."""
    log_in(browser, campus, "student@campus.test", "campus-student")
    browser.get(campus.url + "/timetable/teachers/i-kirinovich")
    browser.find_element(By.CSS_SELECTOR, ".card-answer summary").click()
    Select(browser.find_element(By.ID, "card-attendance")).select_by_value("yes")
    Select(browser.find_element(By.ID, "card-automatic")).select_by_value("no")
    fill(browser, "card-description", "Explains twice, asks once")
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "save-card"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your answer is saved.")
    card = browser.find_element(By.ID, "teacher-card").text
    assert "Explains twice, asks once" in card and "1 answer" in card and "Marks attendance" in card
    assert browser.find_element(By.ID, "card-attendance").get_attribute("value") == "yes"

    token = campus.login("admin@campus.test", "campus-admin")
    page = campus.call("GET", "/timetable/teachers/i-kirinovich", headers={"Cookie": f"campus_session={token}"}).text
    assert "Explains twice, asks once" in page
    summary = campus.call("GET", "/api/v1/teachers/i-kirinovich/card").json()
    assert summary["answers"] == 1 and summary["attendance"]["yes"] == 1


def test_a_task_with_a_deadline_picked_from_the_lesson_list(browser, campus, tmp_path):
    """A student starts a task from a subject of their schedule, picks one of its next lessons as
    the deadline, attaches a photo, and sees the task with its countdown on the tasks page and
    the home page; done, it moves to the done ones."""
    log_in(browser, campus, "student@campus.test", "campus-student")
    browser.get(campus.url + "/timetable/mine/tasks")
    assert "No tasks yet" in browser.find_element(By.ID, "open-tasks").text
    subject = browser.find_element(By.CSS_SELECTOR, ".task-subjects a")
    name = subject.text
    subject.click()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "task-form")))
    assert browser.find_element(By.ID, "task-subject").get_attribute("value") == name
    choice = browser.find_element(By.CSS_SELECTOR, "#deadline-choices input[name=deadlineAt]")
    picked = choice.get_attribute("value")
    browser.execute_script("arguments[0].click()", choice)
    fill(browser, "task-text", "Lab report, printed")
    photo = tmp_path / "board.png"
    photo.write_bytes(bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + bytes(200))
    browser.find_element(By.ID, "task-image").send_keys(str(photo))
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "save-task"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your task is saved.")
    row = browser.find_element(By.CSS_SELECTOR, "#open-tasks .task").text
    assert name in row and "Lab report, printed" in row and "in " in row, row

    # The deadline is the lesson's start, as the API offers it.
    token = campus.login("student@campus.test", "campus-student")
    task = campus.call("GET", "/api/v1/me/tasks", token=token).json()["items"][0]
    lessons = campus.call("GET", "/api/v1/me/upcoming-lessons", token=token,
                          params={"subject": name, "limit": 50}).json()["items"]
    starts = {lesson["startsAt"]: lesson for lesson in lessons}
    assert task["deadline"] in starts and len(task["images"]) == 1
    lesson = starts[task["deadline"]]
    assert picked == f"{lesson['lesson']['date']}T{lesson['lesson']['start']}"
    image = campus.call("GET", task["images"][0]["url"], token=token)
    assert image.status_code == 200 and image.headers["Content-Type"] == "image/png"

    browser.get(campus.url + "/")
    assert name in browser.find_element(By.ID, "glance-tasks").text
    browser.get(campus.url + "/timetable/mine/tasks")
    browser.execute_script("arguments[0].click()", browser.find_element(By.CSS_SELECTOR, "#open-tasks .task button"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "is done.")
    assert name in browser.find_element(By.ID, "done-tasks").text


def test_an_admin_adds_changes_and_removes_a_radio_station(browser, campus, tmp_path):
    """Listen → Radio: an admin adds a station with its source password, changes it on its page,
    and removes it; a student sees no such forms."""
    log_in(browser, campus, "admin@campus.test", "campus-admin")
    browser.get(campus.url + "/listen/radio?region=")
    browser.find_element(By.CSS_SELECTOR, "#new-station").find_element(By.XPATH, "..").find_element(
        By.TAG_NAME, "summary").click()
    fill(browser, "station-name", "Campus FM")
    fill(browser, "station-mount", "campus.mp3")
    fill(browser, "station-password", "on-air-2026")
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "add-station"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "“Campus FM” is added.")

    # A second station at the same mount comes back in its form, the mistake said beside the
    # field and what was written kept.
    browser.get(campus.url + "/listen/radio?region=")
    browser.find_element(By.CSS_SELECTOR, "#new-station").find_element(By.XPATH, "..").find_element(
        By.TAG_NAME, "summary").click()
    fill(browser, "station-name", "Campus FM 2")
    fill(browser, "station-mount", "campus.mp3")
    fill(browser, "station-password", "on-air-2026")
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "add-station"))
    wait_text(browser, (By.ID, "station-mount-error"), "Another station broadcasts at campus.mp3.")
    assert browser.find_element(By.ID, "station-name").get_attribute("value") == "Campus FM 2"
    assert browser.find_element(By.ID, "station-mount").get_attribute("aria-invalid") == "true"
    browser.get(campus.url + "/listen/radio/campus.mp3")
    assert browser.find_element(By.ID, "station-name").text == "Campus FM"
    station = campus.call("GET", "/api/v1/stations/campus.mp3").json()
    assert station["onAir"] is False and station["listenerLimit"] == 1000

    browser.find_element(By.CSS_SELECTOR, "#edit-station").find_element(By.XPATH, "..").find_element(
        By.TAG_NAME, "summary").click()
    genre = browser.find_element(By.CSS_SELECTOR, "#edit-station input[name=genre]")
    genre.clear()
    genre.send_keys("Jazz")
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "save-station"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "“Campus FM” is saved.")
    assert campus.call("GET", "/api/v1/stations/campus.mp3").json()["genre"] == "Jazz"

    # Recording needs a programme: the change comes back open, with the reason.
    browser.find_element(By.CSS_SELECTOR, "#edit-station").find_element(By.XPATH, "..").find_element(
        By.TAG_NAME, "summary").click()
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "station-records"))
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "save-station"))
    wait_text(browser, (By.ID, "station-records-error"), "records its broadcasts into a radio programme")
    assert browser.find_element(By.ID, "station-records").is_selected()
    assert campus.call("GET", "/api/v1/stations/campus.mp3").json()["recordsBroadcasts"] is False

    # An image for the station: it shows on its page and in the API.
    png = tmp_path / "station.png"
    subprocess.run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-f", "lavfi", "-i", "color=c=blue:s=64x64",
                    "-frames:v", "1", str(png)], check=True)
    browser.find_element(By.ID, "station-image-form").find_element(By.XPATH, "..").find_element(
        By.TAG_NAME, "summary").click()
    browser.find_element(By.ID, "station-image-file").send_keys(str(png))
    browser.execute_script("arguments[0].click()", browser.find_element(By.ID, "upload-station-image"))
    wait_text(browser, (By.CLASS_NAME, "flash"), "The image is saved.")
    image = browser.find_element(By.ID, "station-image")
    assert browser.execute_script("return arguments[0].naturalWidth", image) == 64
    assert campus.call("GET", "/api/v1/stations/campus.mp3").json()["imageUrl"]

    token = campus.login("student@campus.test", "campus-student")
    page = campus.call("GET", "/listen/radio/campus.mp3", headers={"Cookie": f"campus_session={token}"}).text
    assert 'id="edit-station"' not in page and 'id="remove-station"' not in page

    # Liking the station: told when it goes on the air (issue 39); the page fits a phone in
    # Russian and Bulgarian, and liking it again from there takes the like back.
    browser.find_element(By.ID, "station-like-button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "you will be told when it goes on the air")
    admin = campus.login("admin@campus.test", "campus-admin")
    assert campus.call("GET", "/api/v1/me/station-likes", token=admin).json() == {"mounts": ["campus.mp3"]}
    browser.set_window_size(390, 844)
    shots = Path(__file__).resolve().parents[2] / ".ci-work" / "screenshots" / "phone"
    shots.mkdir(parents=True, exist_ok=True)
    for language in ("ru", "bg"):
        browser.add_cookie({"name": "campus_language", "value": language, "path": "/"})
        browser.get(campus.url + "/listen/radio/campus.mp3")
        overflow = browser.execute_script("return document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"the station page in {language} is wider than a phone by {overflow}px"
        browser.save_screenshot(str(shots / f"admin-{language}-station.png"))
    browser.delete_cookie("campus_language")
    browser.find_element(By.ID, "station-unlike").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "You no longer like the station.")
    assert campus.call("GET", "/api/v1/me/station-likes", token=admin).json() == {"mounts": []}

    browser.execute_script("HTMLFormElement.prototype.submit.call(document.getElementById('remove-station').form)")
    wait_text(browser, (By.CLASS_NAME, "flash"), "The station is removed.")
    assert campus.call("GET", "/api/v1/stations/campus.mp3").status_code == 404


def test_find_a_free_room(browser, campus):
    """From the rooms list to the free rooms: a date, a pair and a building chosen in the form give
    the rooms the API gives, each saying until when it is free."""
    browser.get(campus.url + "/timetable/rooms")
    browser.find_element(By.ID, "free-rooms-link").click()
    wait_text(browser, (By.TAG_NAME, "h1"), "Free rooms")
    date = browser.find_element(By.ID, "free-date")
    browser.execute_script("arguments[0].value = '2023-09-25'", date)
    Select(browser.find_element(By.ID, "free-pair")).select_by_value("3")
    fill(browser, "free-building", "5")
    browser.find_element(By.CSS_SELECTOR, "#free-rooms-form button").click()
    wait_text(browser, (By.ID, "free-summary"), "during pair 3 (12:25–13:45)")
    expected = campus.call("GET", "/api/v1/rooms/free",
                           params={"date": "2023-09-25", "pair": 3, "building": 5}).json()
    names = [item["room"]["name"] for section in expected["sections"] for item in section["items"]]
    shown = [a.find_element(By.TAG_NAME, "strong").text for a in browser.find_elements(By.CSS_SELECTOR, ".free-rooms a")]
    assert shown == names and names
    assert all(a.find_element(By.CLASS_NAME, "free-until").text.startswith("free")
               for a in browser.find_elements(By.CSS_SELECTOR, ".free-rooms a"))
    assert Select(browser.find_element(By.ID, "free-pair")).first_selected_option.get_attribute("value") == "3"


def test_an_admin_puts_a_building_on_the_map(browser, campus):
    """An admin sets a building's place on /admin/buildings (a comma as the decimal point, as
    Russian keyboards type it); its rooms' pages and lesson cards then link to OpenStreetMap."""
    log_in(browser, campus, "admin@campus.test", "campus-admin")
    browser.find_element(By.LINK_TEXT, "Accounts").click()
    browser.find_element(By.ID, "buildings-link").click()
    section = browser.find_elements(By.CSS_SELECTOR, "section.building")[0]
    number = int(section.get_attribute("id").removeprefix("building-"))
    section.find_element(By.NAME, "name").clear()
    section.find_element(By.NAME, "name").send_keys("Main building")
    section.find_element(By.NAME, "latitude").send_keys("53,9117")
    section.find_element(By.NAME, "longitude").send_keys("27.5949")
    section.find_element(By.TAG_NAME, "button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), f"Building {number} is saved.")
    saved = browser.find_element(By.ID, f"building-{number}")
    assert saved.find_element(By.NAME, "latitude").get_attribute("value") == "53.9117"
    rooms = campus.call("GET", "/api/v1/rooms", params={"building": number}).json()
    room = rooms["sections"][0]["items"][0]
    assert room["mapUrl"] == "https://www.openstreetmap.org/?mlat=53.9117&mlon=27.5949#map=18/53.9117/27.5949"
    browser.get(f"{campus.url}/timetable/rooms/{room['id']}")
    assert browser.find_element(By.ID, "room-map").get_attribute("href") == room["mapUrl"]
    # A bad coordinate is refused with a message, and nothing changes.
    browser.get(campus.url + "/admin/buildings")
    section = browser.find_element(By.ID, f"building-{number}")
    section.find_element(By.NAME, "latitude").clear()
    section.find_element(By.NAME, "latitude").send_keys("north")
    section.find_element(By.TAG_NAME, "button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "is not a number")
    assert campus.call("GET", f"/api/v1/rooms/{room['id']}").json()["mapUrl"] == room["mapUrl"]


def test_a_student_chooses_a_speciality_and_an_elective(browser, campus, tmp_path):
    """Seed 003's catalogue (its own sample files) imported by the CLI while the server runs; the
    demo student chooses their speciality by its code and their year, finds the normative subject
    added, adds a professional subject by searching, chooses its group, and sees its lesson in
    their own schedule."""
    import shutil
    from pathlib import Path

    from conftest import run_cli

    sample = Path(__file__).resolve().parents[1] / "FormatsTests" / "Data" / "kma"
    for name in ("subjects.json", "schedule.json"):
        shutil.copy(sample / name, tmp_path / name)
    run_cli("import", "kma", str(tmp_path / "subjects.json"), str(tmp_path / "schedule.json"),
            data_dir=campus.data_dir)
    log_in(browser, campus, "student@campus.test", "campus-student")
    browser.get(campus.url + "/timetable/mine")
    browser.find_element(By.ID, "electives-link").click()
    fill(browser, "programme-speciality", "121")
    Select(browser.find_element(By.ID, "programme-year")).select_by_value("3")
    browser.find_element(By.CSS_SELECTOR, "#programme-form button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Your speciality and year are saved.")
    assert browser.find_element(By.ID, "programme-speciality").get_attribute("value") == \
        "121. Інженерія програмного забезпечення"
    wait_text(browser, (By.ID, "electives-normative"), "Архітектура програмного забезпечення")
    fill(browser, "elective-search", "ios")
    browser.find_element(By.CSS_SELECTOR, "#add-elective form.search button").click()
    wait_text(browser, (By.ID, "add-elective"), "Розробка iOS-застосунків")
    browser.find_element(By.CSS_SELECTOR, "#add-elective ul.electives button").click()
    wait_text(browser, (By.ID, "electives-prof"), "Розробка iOS-застосунків")
    row = browser.find_element(By.ID, "subject-294624")
    Select(row.find_element(By.NAME, "group")).select_by_value("3")
    row.find_element(By.CSS_SELECTOR, "form button").click()
    wait_text(browser, (By.CLASS_NAME, "flash"), "Saved.")
    wait_text(browser, (By.ID, "subject-294624"), "294624-3")
    browser.get(campus.url + "/timetable?week=2024-04-08")
    wait_text(browser, (By.CSS_SELECTOR, "main"), "Розробка iOS-застосунків")


def test_jump_to_a_date_search_and_the_exam_session(browser, campus):
    """On a group's page: the date picker opens the week of the date chosen, the search keeps only
    the subjects that hold the text, and the exam session lists exams and consultations in date
    order with the days left. (The demo moves the fixtures' dates into this academic year.)"""
    import datetime

    term = campus.call("GET", "/api/v1/groups/913801").json()["term"]
    first = datetime.date.fromisoformat(term["examsStart"])  # a consultation of ПОМС
    monday = first - datetime.timedelta(days=first.weekday())
    browser.get(campus.url + "/timetable/groups/913801")
    date = browser.find_element(By.ID, "jump-date")
    browser.execute_script("arguments[0].value = arguments[1]", date, first.isoformat())
    browser.find_element(By.CSS_SELECTOR, "#jump-form button").click()
    wait_text(browser, (By.ID, "week-title"), f"{monday:%B} {monday.day}")
    assert f"week={first.isoformat()}" in browser.current_url
    days = [d.get_attribute("id") for d in browser.find_elements(By.CSS_SELECTOR, "#day-list section.day")]
    assert f"day-{first.isoformat()}" in days
    fill(browser, "schedule-search", "помс")
    browser.find_element(By.CSS_SELECTOR, "#jump-form button").click()
    wait_text(browser, (By.ID, "week-title"), f"{monday:%B} {monday.day}")
    subjects = {s.get_attribute("textContent") for s in browser.find_elements(By.CSS_SELECTOR, "#day-list .lesson .subject")}
    assert subjects == {"ПОМС"}, subjects
    browser.find_element(By.ID, "exams-view").click()
    wait_text(browser, (By.ID, "exam-session"), "Exam session")
    whens = [p.text for p in browser.find_elements(By.CSS_SELECTOR, "#exam-session .exam-when strong")]
    second = first + datetime.timedelta(days=1)
    assert whens[:2] == [f"{first:%B} {first.day}, {first.year}", f"{second:%B} {second.day}, {second.year}"], whens
    assert len(whens) >= 6
