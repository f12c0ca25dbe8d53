"""Schedule changes, kept (issue 39): a changed IIS schedule imported with the command line while
the server runs, on SQLite and PostgreSQL, gives each changed occurrence of the eight weeks ahead
in the API, on the group's page (the old value struck through) and in the calendar feed, where
the removed lesson's events stay under their UIDs as cancelled (read by icalendar)."""
import copy
import datetime
import json
import os
import time
import urllib.parse
from pathlib import Path

import icalendar
import pytest

from conftest import Campus, make_postgres_database, run_cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(os.environ.get("CAMPUS_FIXTURES", ROOT.parent / "shared" / "fixtures")) / "iis"


def dotted(day):
    return day.strftime("%d.%m.%Y")


def this_term(schedule):
    """151004's autumn schedule moved to a term around today: every weekly lesson runs from two
    weeks back to five months ahead (its study weeks as they were)."""
    today = datetime.date.today()
    start, end = today - datetime.timedelta(days=14), today + datetime.timedelta(days=150)
    schedule = copy.deepcopy(schedule)
    schedule["startDate"], schedule["endDate"] = dotted(start), dotted(end)
    schedule["exams"] = []
    for lessons in schedule["schedules"].values():
        for lesson in lessons:
            if lesson.get("dateLesson") is None:
                lesson["startLessonDate"], lesson["endLessonDate"] = dotted(start), dotted(end)
    return schedule


def feed_events(server, path):
    calendar = icalendar.Calendar.from_ical(server.call("GET", path).content)
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


@pytest.mark.parametrize("kind", ["sqlite", "postgres"])
def test_a_changed_schedule_imported_while_the_server_runs_says_what_changed(kind, tmp_path):
    database = make_postgres_database() if kind == "postgres" else None
    data_dir = tmp_path / "campus-data"
    original = this_term(json.loads((FIXTURES / "151004.json").read_text()))
    first_file = tmp_path / "151004.json"
    first_file.write_text(json.dumps(original, ensure_ascii=False))
    run_cli("import", "iis", str(first_file), data_dir=data_dir, database=database)

    server = Campus(data_dir, database=database).start()
    try:
        before_feed = feed_events(server, "/api/v1/groups/151004/calendar.ics")
        assert server.call("GET", "/api/v1/groups/151004/changes").json() == {"items": []}

        # The whole group's Monday 09:00 lesson goes to another room; a Tuesday lesson moves to 17:00.
        changed = copy.deepcopy(original)
        monday = next(l for l in changed["schedules"]["Понедельник"] if l["numSubgroup"] == 0)
        old_room = monday["auditories"][0]
        new_room = next(
            room for lessons in changed["schedules"].values() for l in lessons for room in l["auditories"]
            if room != old_room)
        monday["auditories"] = [new_room]
        tuesday = next(l for l in changed["schedules"]["Вторник"] if l["numSubgroup"] == 0)
        tuesday_start = tuesday["startLessonTime"]
        tuesday["startLessonTime"], tuesday["endLessonTime"] = "17:00", "18:20"
        changed_file = tmp_path / "changed" / "151004.json"
        changed_file.parent.mkdir()
        changed_file.write_text(json.dumps(changed, ensure_ascii=False))
        output = run_cli("import", "iis", str(changed_file), data_dir=data_dir, database=database).stdout
        assert "Changes of lessons in the next 8 weeks" in output, output

        items = server.call("GET", "/api/v1/groups/151004/changes").json()["items"]
        rooms = [i for i in items if i["kind"] == "room" and i["subject"] == monday["subject"]]
        moves = [i for i in items if i["kind"] == "moved" and i["subject"] == tuesday["subject"]]
        # Weeks 1–4 or some of them: at least one occurrence of each in eight weeks, at most eight.
        assert 1 <= len(rooms) <= 8 and 1 <= len(moves) <= 8, items
        assert {i["kind"] for i in items} == {"room", "moved"}, items
        room = rooms[0]
        assert room["before"]["start"] == room["after"]["start"] == monday["startLessonTime"]
        assert room["before"]["rooms"] != room["after"]["rooms"]
        assert datetime.date.fromisoformat(room["date"]).weekday() == 0
        move = moves[0]
        assert (move["before"]["start"], move["after"]["start"]) == (tuesday_start, "17:00")
        assert move["target"] == {"kind": "group", "key": "151004"}
        for item in items:
            assert datetime.date.fromisoformat(item["date"]) >= datetime.date.today() - datetime.timedelta(days=1)
            assert datetime.date.fromisoformat(item["date"]) <= datetime.date.today() + datetime.timedelta(days=57)
        # Since a moment after the import: nothing.
        later = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=1)).isoformat()
        assert server.call("GET", "/api/v1/groups/151004/changes", params={"since": later}).json() == {"items": []}
        # The lessons' teachers see their share.
        for teacher in {e["urlId"] for e in tuesday["employees"] or []}:
            assert any(i["kind"] == "moved" for i in
                       server.call("GET", f"/api/v1/teachers/{teacher}/changes").json()["items"])

        # Bad requests are refused with what was wrong.
        assert server.call("GET", "/api/v1/groups/000000/changes").status_code == 404
        assert server.call("GET", "/api/v1/groups/151004/changes", params={"since": "yesterday"}).status_code == 422
        assert server.call("GET", "/api/v1/me/changes").status_code == 401

        # My timetable: a student of 151004's whole group sees both.
        server.register("changes@example.org")
        token = server.login("changes@example.org")
        profile = server.call("PATCH", "/api/v1/me", token=token, json={"group": "151004"})
        assert profile.status_code == 200, profile.text
        mine = server.call("GET", "/api/v1/me/changes", token=token).json()["items"]
        assert {i["kind"] for i in mine} == {"room", "moved"}

        # The group's page lists them above the week, the old value struck through.
        page = server.call("GET", "/timetable/groups/151004").text
        assert 'id="schedule-changes"' in page and "<s>" in page and "<ins>" in page

        # The feed: the lessons that were replaced keep their events, cancelled, under their UIDs.
        # (The server reads the timetable's version at most once a second.)
        deadline = time.monotonic() + 10
        while True:
            after_feed = feed_events(server, "/api/v1/groups/151004/calendar.ics")
            cancelled = {uid: e for uid, e in after_feed.items() if str(e.get("STATUS", "")) == "CANCELLED"}
            if cancelled or time.monotonic() > deadline:
                break
            time.sleep(0.3)
        assert cancelled and set(cancelled) <= set(before_feed), sorted(cancelled)
        assert all(int(e["SEQUENCE"]) == 1 for e in cancelled.values())
        assert {str(e["SUMMARY"]).split(" (")[0] for e in cancelled.values()} == {monday["subject"], tuesday["subject"]}
        live = [uid for uid, e in after_feed.items() if str(e.get("STATUS", "")) != "CANCELLED"]
        assert len(live) == len(before_feed), "each replaced lesson has its new events"

        # Calendar apps ask "has it changed?": by tag or by date, 304 while it has not.
        response = server.call("GET", "/api/v1/groups/151004/calendar.ics")
        tag, modified = response.headers["ETag"], response.headers["Last-Modified"]
        assert server.call("GET", "/api/v1/groups/151004/calendar.ics",
                           headers={"If-None-Match": tag}).status_code == 304
        assert server.call("GET", "/api/v1/groups/151004/calendar.ics",
                           headers={"If-Modified-Since": modified}).status_code == 304
        assert server.call("GET", "/api/v1/groups/151004/calendar.ics",
                           headers={"If-Modified-Since": "Mon, 01 Jan 2024 00:00:00 GMT"}).status_code == 200
        feed = urllib.parse.urlparse(server.call("GET", "/api/v1/me/calendar", token=token).json()["url"]).path
        personal = server.call("GET", feed)
        assert personal.status_code == 200 and "STATUS:CANCELLED" in personal.text
        assert server.call("GET", feed, headers={"If-None-Match": personal.headers["ETag"]}).status_code == 304

        # Importing the same file again changes nothing more.
        again = run_cli("import", "iis", str(changed_file), data_dir=data_dir, database=database).stdout
        assert "Changes of lessons" not in again
        assert len(server.call("GET", "/api/v1/groups/151004/changes").json()["items"]) == len(items)
    finally:
        server.stop()
