"""Campus speaks first (issue 39): a changed IIS schedule imported with `campus import iis` while
the server runs reaches the group's students by Web Push (a push service on 127.0.0.1 that checks
the VAPID signature and decrypts the message with the keys it made), in their inbox and by mail,
each exactly once, in their language; a favorite's change reaches the inbox only; a subscription
the push service says is gone is removed; one user never sees another's inbox, settings or
subscriptions; endpoints Campus may not send to are refused. On SQLite and PostgreSQL, with two
instances on one PostgreSQL database, and across a kill -9."""
import copy
import json
import re
import signal
import time
from pathlib import Path

import pytest
import requests

from conftest import Campus, make_postgres_database, run_cli
from pushservice import PushService
from test_schedule_changes import FIXTURES, this_term


def changed_schedule(original):
    """151004's schedule with its whole-group Monday lesson in another room: (schedule, subject, new room)."""
    changed = copy.deepcopy(original)
    monday = next(l for l in changed["schedules"]["Понедельник"] if l["numSubgroup"] == 0)
    old_room = monday["auditories"][0]
    new_room = next(room for lessons in changed["schedules"].values() for l in lessons
                    for room in l["auditories"] if room != old_room)
    monday["auditories"] = [new_room]
    return changed, monday["subject"], new_room


def write(path, schedule):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(schedule, ensure_ascii=False))
    return path


def mails(*data_dirs):
    return [f.read_text() for d in data_dirs for f in sorted((Path(d) / "mail").glob("*.eml"))]


def wait(condition, timeout=30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.2)
    return condition()


def without_lesson_reminders(server, token):
    """Turns off a user's reminders of lessons about to begin: the imported term's real lessons
    would otherwise add a reminder to a test that runs within 15 minutes of one."""
    settings = server.call("GET", "/api/v1/me/notification-settings", token=token).json()
    for topic in settings["topics"]:
        if topic["topic"] == "next-lesson":
            topic.update({"inbox": False, "push": False, "email": False})
    answer = server.call("PUT", "/api/v1/me/notification-settings", token=token, json=settings)
    assert answer.status_code == 200, answer.text


def student(server, email, language="ru"):
    server.register(email)
    token = server.login(email)
    answer = server.call("PATCH", "/api/v1/me", token=token, json={"group": "151004", "language": language})
    assert answer.status_code == 200, answer.text
    return token


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_changed_schedule_reaches_its_students_by_push_inbox_and_mail_once(kind, tmp_path):
    database = make_postgres_database() if kind == "postgres" else None
    data_dir = tmp_path / "campus-data"
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    run_cli("import", "iis", str(write(tmp_path / "a" / "151004.json", original)), data_dir=data_dir,
            database=database)
    push = PushService().start()
    server = Campus(data_dir, database=database, extra=["--push-allow", push.origin]).start()
    try:
        key = server.call("GET", "/api/v1/push/key").json()["publicKey"]
        assert len(key) >= 86, key

        ann = student(server, "ann@example.org")
        defaults = server.call("GET", "/api/v1/me/notification-settings", token=ann).json()
        topics = {t["topic"]: t for t in defaults["topics"]}
        assert topics["schedule-changed"] == {"topic": "schedule-changed", "inbox": True, "push": True, "email": True}
        assert topics["favorite-changed"] == {"topic": "favorite-changed", "inbox": True, "push": False,
                                              "email": False}
        without_lesson_reminders(server, ann)
        subscription = push.subscription()
        created = server.call("POST", "/api/v1/me/push-subscriptions", token=ann, json=subscription)
        assert created.status_code == 201, created.text
        # The same browser again is the same subscription.
        again = server.call("POST", "/api/v1/me/push-subscriptions", token=ann, json=subscription)
        assert again.status_code == 201 and again.json()["id"] == created.json()["id"]

        # A fan of the group (not in it) follows it as a favorite: inbox only, by default.
        server.register("fan@example.org")
        fan = server.login("fan@example.org")
        without_lesson_reminders(server, fan)
        assert server.call("PUT", "/api/v1/me/favorites/group/151004", token=fan).status_code in (200, 201, 204)
        fan_subscription = push.subscription()
        assert server.call("POST", "/api/v1/me/push-subscriptions", token=fan,
                           json=fan_subscription).status_code == 201

        # Nobody sees another's inbox, settings or subscriptions.
        server.register("bob@example.org")
        bob = server.login("bob@example.org")
        assert server.call("DELETE", f"/api/v1/me/push-subscriptions/{created.json()['id']}",
                           token=bob).status_code == 404
        assert server.call("GET", "/api/v1/me/push-subscriptions", token=bob).json() == {"items": []}
        for path in ("/api/v1/me/notifications", "/api/v1/me/notification-settings", "/api/v1/me/push-subscriptions"):
            assert server.call("GET", path).status_code == 401

        # Endpoints Campus may not send to.
        for endpoint in ("http://127.0.0.1:9/push/x", "file:///etc/passwd", "https://10.1.2.3/push",
                         "https://localhost/push", "http://push.example.net/push"):
            refused = server.call("POST", "/api/v1/me/push-subscriptions", token=bob,
                                  json={**push.subscription(), "endpoint": endpoint})
            assert refused.status_code == 422, (endpoint, refused.text)
            assert refused.json()["type"] == "/problems/invalid-fields"
        bad_keys = {**push.subscription(), "keys": {"p256dh": "AAAA", "auth": "AAAA"}}
        assert server.call("POST", "/api/v1/me/push-subscriptions", token=bob, json=bad_keys).status_code == 422

        changed, subject, new_room = changed_schedule(original)
        output = run_cli("import", "iis", str(write(tmp_path / "b" / "151004.json", changed)),
                         data_dir=data_dir, database=database).stdout
        assert "Changes of lessons in the next 8 weeks" in output, output

        received = push.wait_for(1)
        assert push.refused == []
        assert len(received) == 1, received
        message = received[0]
        assert message["endpoint"] == subscription["endpoint"].rsplit("/", 1)[-1]
        payload = message["payload"]
        assert payload["title"] == "Расписание 151004 изменилось", payload
        assert subject in payload["body"] and new_room.split("-")[0] in payload["body"], payload
        assert payload["link"].startswith("/timetable/groups/151004")
        assert message["urgency"] == "high" and message["ttl"] > 0 and message["topic"]

        inbox = server.call("GET", "/api/v1/me/notifications", token=ann).json()
        assert inbox["unread"] == 1 and len(inbox["items"]) == 1
        assert inbox["items"][0]["title"] == payload["title"] and inbox["items"][0]["topic"] == "schedule-changed"
        fan_inbox = server.call("GET", "/api/v1/me/notifications", token=fan).json()
        assert [i["topic"] for i in fan_inbox["items"]] == ["favorite-changed"]
        assert server.call("GET", "/api/v1/me/notifications", token=bob).json() == {"items": [], "unread": 0}

        # One mail, to Ann alone, with its one-click way out.
        sent = wait(lambda: mails(data_dir))
        assert len(sent) == 1, sent
        assert "To: ann@example.org" in sent[0] and "List-Unsubscribe: <" in sent[0]
        # Nothing more comes: each went out once.
        time.sleep(3)
        assert len(push.received) == 1 and len(mails(data_dir)) == 1

        # Read: the bell empties.
        answer = server.call("POST", "/api/v1/me/notifications/read", token=ann, json={})
        assert answer.json() == {"unread": 0}

        # The mail's link stops that topic's mail, and only that.
        assert "List-Unsubscribe-Post: List-Unsubscribe=One-Click" in sent[0]
        link = re.search(r"(http://127\.0\.0\.1:\d+/notifications/unsubscribe\?[^\s>]+)", sent[0]).group(1)
        assert "/api/" not in link
        session = requests.Session()
        form = session.get(link, timeout=10)
        assert form.status_code == 200 and 'id="unsubscribe-form"' in form.text
        csrf = re.search(r'name="_csrf" value="([^"]+)"', form.text).group(1)
        fields = dict(re.findall(r'<input type="hidden" name="(u|topic|key)" value="([^"]+)"', form.text))
        done = session.post(server.url + "/notifications/unsubscribe", data={"_csrf": csrf, **fields}, timeout=10)
        assert done.status_code == 200 and 'id="unsubscribed"' in done.text, done.text
        topics = {t["topic"]: t for t in
                  server.call("GET", "/api/v1/me/notification-settings", token=ann).json()["topics"]}
        assert topics["schedule-changed"] == {"topic": "schedule-changed", "inbox": True, "push": True, "email": False}
        forged = session.get(link.replace("key=", "key=x"), timeout=10)
        assert forged.status_code == 404
        # The header's address takes the one-click post of a mail client (RFC 8058), no sign-in.
        one_click = re.search(r"List-Unsubscribe: <([^>]+)>", sent[0]).group(1)
        assert "/api/v1/notifications/unsubscribe?" in one_click
        assert requests.post(one_click.replace("key=", "key=x"), data={"List-Unsubscribe": "One-Click"},
                             timeout=10).status_code == 404
        assert server.call("PUT", "/api/v1/me/notification-settings", token=ann, json={
            **server.call("GET", "/api/v1/me/notification-settings", token=ann).json(),
            "topics": [{"topic": "schedule-changed", "inbox": True, "push": True, "email": True}]}).status_code == 200
        answer = requests.post(one_click, data={"List-Unsubscribe": "One-Click"}, timeout=10)
        assert answer.status_code == 204, answer.text
        topics = {t["topic"]: t for t in
                  server.call("GET", "/api/v1/me/notification-settings", token=ann).json()["topics"]}
        assert topics["schedule-changed"]["email"] is False

        # The browser is gone (410): the next change removes its subscription, and nothing is retried.
        push.gone.add(message["endpoint"])
        run_cli("import", "iis", str(write(tmp_path / "c" / "151004.json", original)), data_dir=data_dir,
                database=database)
        assert wait(lambda: server.call("GET", "/api/v1/me/push-subscriptions", token=ann).json()["items"] == [])
        assert len(push.received) == 1
        assert wait(lambda: server.call("GET", "/api/v1/me/notifications", token=ann).json()["unread"] == 1)
    finally:
        server.stop()
        push.stop()


def test_two_instances_send_each_message_once_and_a_killed_server_delivers_after_its_restart(tmp_path):
    database = make_postgres_database()
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    run_cli("import", "iis", str(write(tmp_path / "a" / "151004.json", original)),
            data_dir=tmp_path / "one", database=database)
    push = PushService().start()
    servers = [Campus(tmp_path / name, database=database,
                      extra=["--push-allow", push.origin, "--media-dir", str(tmp_path / "media")]).start()
               for name in ("one", "two")]
    try:
        tokens = [student(servers[0], f"s{n}@example.org", language="bg") for n in range(5)]
        for n, token in enumerate(tokens):
            answer = servers[n % 2].call("POST", "/api/v1/me/push-subscriptions", token=token,
                                         json=push.subscription())
            assert answer.status_code == 201, answer.text
        changed, subject, new_room = changed_schedule(original)
        run_cli("import", "iis", str(write(tmp_path / "b" / "151004.json", changed)),
                data_dir=tmp_path / "one", database=database)
        received = push.wait_for(5)
        time.sleep(3)
        assert push.refused == []
        assert len(push.received) == 5, push.received
        assert len({m["endpoint"] for m in push.received}) == 5
        assert all(m["payload"]["title"] == "Разписанието на 151004 е променено" for m in push.received), received
        assert wait(lambda: len(mails(tmp_path / "one", tmp_path / "two")) == 5)
        time.sleep(2)
        assert len(mails(tmp_path / "one", tmp_path / "two")) == 5

        # Both instances die; a change is imported meanwhile; one comes back and tells it, once.
        for server in servers:
            server.process.send_signal(signal.SIGKILL)
            server.process.wait()
        run_cli("import", "iis", str(write(tmp_path / "c" / "151004.json", original)),
                data_dir=tmp_path / "one", database=database)
        servers[1].start()
        assert len(push.wait_for(10)) == 10
        time.sleep(3)
        assert len(push.received) == 10
    finally:
        for server in servers:
            if server.process and server.process.poll() is None:
                server.stop()
        push.stop()


WEEKDAYS = ["Понедельник", "Вторник", "Среда", "Четверг", "Пятница", "Суббота", "Воскресенье"]


def test_a_lesson_about_to_begin_is_reminded_once_and_a_cancelled_one_never(tmp_path):
    """Reminder set to 5 minutes. A lesson starting in 3 minutes, imported while the server runs,
    gets one push within a minute (the reminders' round); another, due to be reminded 30 to 90
    seconds after the import, is cancelled by the next import at once and never is."""
    import datetime
    from zoneinfo import ZoneInfo
    now = datetime.datetime.now(ZoneInfo("Europe/Minsk"))
    # Lessons begin on whole minutes: this one's reminder is due at once, the cancelled one's
    # 30 to 90 seconds from now, after both imports (which take a few seconds).
    start = now + datetime.timedelta(minutes=3)
    cancelled_start = (now + datetime.timedelta(minutes=5, seconds=90)).replace(second=0, microsecond=0)
    cancelled_due = cancelled_start - datetime.timedelta(minutes=5)
    if cancelled_start.date() != now.date() or cancelled_start.hour >= 22:
        pytest.skip("too close to midnight for lessons today")
    data_dir = tmp_path / "campus-data"
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    day = start.strftime("%d.%m.%Y")

    def one_off(subject, begins):
        lesson = copy.deepcopy(original["schedules"]["Понедельник"][0])
        lesson.update({"subject": subject, "subjectFullName": subject, "numSubgroup": 0, "dateLesson": day,
                       "startLessonDate": day, "endLessonDate": day,
                       "startLessonTime": begins.strftime("%H:%M"),
                       "endLessonTime": (begins + datetime.timedelta(minutes=80)).strftime("%H:%M")})
        return lesson

    weekday = WEEKDAYS[start.weekday()]
    run_cli("import", "iis", str(write(tmp_path / "a" / "151004.json", original)), data_dir=data_dir)
    push = PushService().start()
    server = Campus(data_dir, extra=["--push-allow", push.origin]).start()
    try:
        ann = student(server, "ann@example.org", language="uk")
        settings = server.call("GET", "/api/v1/me/notification-settings", token=ann).json()
        for topic in settings["topics"]:
            if topic["topic"] == "next-lesson":
                topic["push"] = True
        settings["lessonMinutes"] = 5
        answer = server.call("PUT", "/api/v1/me/notification-settings", token=ann, json=settings)
        assert answer.status_code == 200, answer.text
        assert server.call("POST", "/api/v1/me/push-subscriptions", token=ann,
                           json=push.subscription()).status_code == 201

        with_both = copy.deepcopy(original)
        with_both["schedules"].setdefault(weekday, [])
        with_both["schedules"][weekday] += [one_off("Напоминание", start), one_off("Отменённое", cancelled_start)]
        run_cli("import", "iis", str(write(tmp_path / "b" / "151004.json", with_both)), data_dir=data_dir)
        with_one = copy.deepcopy(with_both)
        with_one["schedules"][weekday] = [l for l in with_one["schedules"][weekday] if l["subject"] != "Отменённое"]
        run_cli("import", "iis", str(write(tmp_path / "c" / "151004.json", with_one)), data_dir=data_dir)

        def reminders(subject):
            # The term's own lessons are reminded too when the test runs shortly before one.
            return [m["payload"] for m in push.received
                    if m["payload"]["topic"] == "next-lesson" and subject in m["payload"]["title"]]

        assert wait(lambda: reminders("Напоминание"), timeout=65), push.received
        # A round of the reminders (one a minute) after the cancelled lesson's moment has passed.
        time.sleep(max(0, (cancelled_due + datetime.timedelta(seconds=65)
                           - datetime.datetime.now(ZoneInfo("Europe/Minsk"))).total_seconds()))
        assert push.refused == []
        assert len(reminders("Напоминание")) == 1 and reminders("Отменённое") == [], push.received
        reminder = reminders("Напоминание")[0]
        assert start.strftime("%H:%M") in reminder["title"], reminder
        changes = [m["payload"] for m in push.received if m["payload"]["topic"] == "schedule-changed"]
        assert any("Отменённое" in c["body"] for c in changes), changes
        inbox = server.call("GET", "/api/v1/me/notifications", token=ann).json()["items"]
        reminded = [i["title"] for i in inbox if i["topic"] == "next-lesson"]
        assert sum("Напоминание" in title for title in reminded) == 1, reminded
        assert not any("Отменённое" in title for title in reminded), reminded
        # Bad settings are refused with what was wrong.
        for bad in ({**settings, "lessonMinutes": 0}, {**settings, "timeZone": "Mars/Olympus"},
                    {**settings, "quietFrom": "25:00", "quietTo": "07:00"}, {**settings, "quietFrom": "22:00"}):
            refused = server.call("PUT", "/api/v1/me/notification-settings", token=ann, json=bad)
            assert refused.status_code == 422, (bad, refused.text)
    finally:
        server.stop()
        push.stop()


def click_notification_in_worker(driver, origin):
    """Dispatches `notificationclick` for the first shown notification inside the service worker
    of `origin`, through the worker's own DevTools target (ChromeDriver talks to pages only)."""
    import websocket

    address = driver.capabilities["goog:chromeOptions"]["debuggerAddress"]
    targets = requests.get(f"http://{address}/json/list", timeout=5).json()
    worker = next(t for t in targets if t["type"] == "service_worker" and t["url"].startswith(origin))
    socket = websocket.create_connection(worker["webSocketDebuggerUrl"], timeout=10, suppress_origin=True)
    try:
        socket.send(json.dumps({"id": 1, "method": "Runtime.evaluate", "params": {"awaitPromise": True, "expression": (
            "self.registration.getNotifications().then(n => {"
            " self.dispatchEvent(new NotificationEvent('notificationclick', {notification: n[0]}));"
            " return n.length; })")}}))
        while True:
            answer = json.loads(socket.recv())
            if answer.get("id") == 1:
                break
    finally:
        socket.close()
    assert answer["result"]["result"].get("value") == 1, answer


def test_the_service_worker_shows_a_pushed_message_with_its_link_in_chromium(tmp_path):
    """Chromium at phone size: a push delivered to the service worker through CDP
    (`ServiceWorker.deliverPushMessage`) is shown as a notification with the message's title,
    body and link, and a click on it (dispatched in the worker: headless Chromium has no
    notification to click) opens the link in the open window. The inbox and settings pages in Russian and Bulgarian, screenshots."""
    from browsing import log_in
    from conftest import chromium
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    shots = Path(__file__).resolve().parents[2] / ".ci-work" / "screenshots" / "notifications"
    shots.mkdir(parents=True, exist_ok=True)
    server = Campus(tmp_path / "campus-data").start()
    driver = chromium(tmp_path / "chromium", phone=True, performance_log=True)
    try:
        server.register("ann@example.org")
        token = server.login("ann@example.org")
        log_in(driver, server, "ann@example.org", "correct horse")
        driver.execute_cdp_cmd("Browser.grantPermissions", {"origin": server.url, "permissions": ["notifications"]})
        driver.get(server.url + "/notifications/settings")
        WebDriverWait(driver, 20).until(lambda d: d.execute_script("return !!navigator.serviceWorker.controller"))
        driver.execute_cdp_cmd("ServiceWorker.enable", {})

        def registration():
            for entry in driver.get_log("performance"):
                message = json.loads(entry["message"])["message"]
                if message.get("method") == "ServiceWorker.workerRegistrationUpdated":
                    for item in message["params"]["registrations"]:
                        if item["scopeURL"].startswith(server.url) and not item.get("isDeleted"):
                            return item["registrationId"]
            return None

        # CDP names the registration in an event Chromium may not log; a new profile's first
        # registration is "0".
        registration_id = wait(registration, timeout=5) or "0"
        message = {"id": 7, "topic": "schedule-changed", "title": "Расписание 151004 изменилось",
                   "body": "Другая аудитория: Мат · пн 7 декабря · 09:00–10:20 · 505-2", "late": False,
                   "link": "/timetable/groups/151004#schedule-changes"}
        driver.execute_cdp_cmd("ServiceWorker.deliverPushMessage", {
            "origin": server.url, "registrationId": registration_id, "data": json.dumps(message, ensure_ascii=False)})
        shown = WebDriverWait(driver, 10).until(lambda d: d.execute_async_script(
            "navigator.serviceWorker.ready.then(r => r.getNotifications())"
            ".then(n => arguments[0](n.map(x => [x.title, x.body, x.data && x.data.link, x.tag])))"))
        assert shown == [[message["title"], message["body"], message["link"], "campus-7"]], shown

        # A click on it opens its link in the open window. Headless Chromium shows no notification
        # to click, so the worker itself is handed the `notificationclick` event for the very
        # notification it showed (evaluated in the worker through its DevTools target).
        click_notification_in_worker(driver, server.url)
        WebDriverWait(driver, 10).until(lambda d: d.current_url == server.url + message["link"])
        assert driver.execute_async_script(
            "navigator.serviceWorker.ready.then(r => r.getNotifications()).then(n => arguments[0](n.length))") == 0

        # The bell counts what the inbox holds unread; the pages at phone size in Russian and Bulgarian.
        for language in ("ru", "bg"):
            assert server.call("PATCH", "/api/v1/me", token=token, json={"language": language}).status_code == 200
            for path, name in (("/notifications", "inbox"), ("/notifications/settings", "settings")):
                driver.get(server.url + path)
                assert driver.find_element(By.ID, "bell").is_displayed()
                width = driver.execute_script("return document.documentElement.scrollWidth")
                assert width <= 390, f"{path} in {language} is {width} px wide"
                driver.save_screenshot(str(shots / f"{name}-{language}.png"))
        assert driver.find_element(By.ID, "push-state").text
    finally:
        driver.quit()
        server.stop()


def test_a_participant_is_told_of_their_result_and_of_the_competition_deactivated(tmp_path):
    server = Campus(tmp_path / "campus-data").start()
    try:
        server.register("org@example.org", organizer=True)
        server.register("runner@example.org")
        organizer, runner = server.login("org@example.org"), server.login("runner@example.org")
        assert server.call("PATCH", "/api/v1/me", token=runner, json={"language": "ru"}).status_code == 200
        created = server.call("POST", "/api/v1/competitions", token=organizer,
                              json={"name": "Кросс", "metric": "distance"}).json()
        me = server.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=runner).json()
        answer = server.call("PUT", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/result",
                             token=organizer, json={"value": 12.345})
        assert answer.status_code == 200, answer.text
        assert server.call("POST", f"/api/v1/competitions/{created['id']}/deactivate",
                           token=organizer).status_code == 200
        inbox = server.call("GET", "/api/v1/me/notifications", token=runner).json()
        assert [i["topic"] for i in inbox["items"]] == ["competition-status", "result-entered"], inbox
        deactivated, result = inbox["items"]
        assert result["title"] == "Ваш результат в «Кросс»" and result["body"] == "12,35 км", result
        assert deactivated["title"] == "«Кросс» деактивировано", deactivated
        assert result["link"] == f"/compete/{created['id']}"
        # The organizer, who is no participant, is told nothing.
        assert server.call("GET", "/api/v1/me/notifications", token=organizer).json()["items"] == []
    finally:
        server.stop()


def test_fans_hear_of_a_liked_podcasts_new_episodes(tmp_path):
    import functools
    import http.server
    import threading

    site = tmp_path / "site"
    site.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(site))
    web = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    base = f"http://127.0.0.1:{web.server_address[1]}"
    threading.Thread(target=web.serve_forever, daemon=True).start()

    def feed(*numbers):
        items = "".join(f"""<item><title>Выпуск {n}</title><guid>ep-{n}</guid>
          <enclosure url="{base}/ep{n}.mp3" length="1000" type="audio/mpeg"/></item>""" for n in numbers)
        (site / "feed.xml").write_text(f"""<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0"><channel><title>Студсовет</title><link>{base}/</link>
<description>Talks.</description><image><url>{base}/cover.png</url></image>{items}</channel></rss>""")

    from test_listen import png_pixel
    (site / "cover.png").write_bytes(png_pixel())

    data_dir = tmp_path / "campus-data"
    run_cli("user", "create", "--email", "boss@example.org", "--admin", "--password", "secret123",
            "--first-name", "Olga", "--last-name", "Boss", data_dir=data_dir)
    server = Campus(data_dir, extra=["--allow-private-fetch"]).start()
    try:
        admin = server.login("boss@example.org", "secret123")
        fan = student(server, "fan@example.org", language="uk")
        feed(1)
        podcast = server.call("POST", "/api/v1/podcasts", token=admin, json={"url": f"{base}/feed.xml"})
        assert podcast.status_code in (200, 201), podcast.text
        podcast_id = podcast.json()["podcastId"]
        liked = server.call("PUT", f"/api/v1/marks/podcast:{podcast_id}", token=fan, json={"mark": "like"})
        assert liked.status_code in (200, 204), liked.text
        # The podcast's feed gains two episodes; the import tells its fan once.
        feed(1, 2, 3)
        assert server.call("POST", "/api/v1/podcasts", token=admin, json={"url": f"{base}/feed.xml"}).status_code \
            in (200, 201)
        assert server.call("POST", "/api/v1/podcasts", token=admin, json={"url": f"{base}/feed.xml"}).status_code \
            in (200, 201)
        inbox = server.call("GET", "/api/v1/me/notifications", token=fan).json()["items"]
        assert [i["topic"] for i in inbox] == ["new-episode"], inbox
        assert inbox[0]["title"].startswith("Нове в «Студсовет»: Выпуск"), inbox[0]
        assert inbox[0]["link"] == f"/podcasts/{podcast_id}"

        # `campus podcast add` beside the running server tells the fan too (the server delivers).
        feed(1, 2, 3, 4)
        run_cli("podcast", "add", f"{base}/feed.xml", "--allow-private-fetch", data_dir=data_dir)

        def titles():
            items = server.call("GET", "/api/v1/me/notifications", token=fan).json()["items"]
            assert {i["topic"] for i in items} == {"new-episode"}, items
            return [i["title"] for i in items]

        assert titles()[0].endswith("Выпуск 4")

        # Nobody imports the fifth episode: the server's refresh (restarted to read the feeds every
        # 7.2 s) finds it and tells the fan, once. The cover's host fails now: the refresh keeps the
        # cover the podcast has.
        def images():
            return server.call("GET", f"/api/v1/podcasts/{podcast_id}", token=fan).json().get("images")

        assert images(), "the import fetched the feed's cover"
        (site / "cover.png").unlink()
        server.stop()
        feed(1, 2, 3, 4, 5)
        server.extra += ["--podcast-refresh-hours", "0.002"]
        server.start()
        told = wait(lambda: (lambda t: t if any(x.endswith("Выпуск 5") for x in t) else None)(titles()), timeout=40)
        assert len(told) == 3 and told[1].endswith("Выпуск 4"), told
        time.sleep(8)
        assert titles() == told
        assert images(), "a refresh whose cover fetch failed took the cover away"

    finally:
        server.stop()
        web.shutdown()
