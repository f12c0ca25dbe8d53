"""The timetable end to end: importing real IIS files with the CLI, bad files, the iCalendar feeds
read by Python's icalendar and recurring-ical-events, and the schedule as the CLI prints it."""
import collections
import json
import datetime
import os
import sqlite3
import time
from pathlib import Path

import icalendar
import recurring_ical_events

from conftest import Campus, run_cli

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = Path(os.environ.get("CAMPUS_FIXTURES", ROOT.parent / "shared" / "fixtures")) / "iis"
IIS_FILES = sorted(str(p) for p in FIXTURES.glob("*.json"))


def timetable_rows(data_dir):
    """Every row of the timetable tables but the time it was written, to compare whole states."""
    db = sqlite3.connect(data_dir / "campus.sqlite")
    rows = []
    for table in ("study_groups", "teachers", "rooms", "lessons", "lesson_groups", "lesson_teachers", "lesson_rooms"):
        cursor = db.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
        columns = [column[0] for column in cursor.description]
        rows += [(table, *(v for c, v in zip(columns, row) if c != "updated_at")) for row in cursor]
    db.close()
    return rows


def test_import_is_idempotent_and_reports(data_dir):
    first = run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    assert "Imported schedules: 5; lessons: 150 (150 new, 0 removed); groups: 329, teachers: 573" in first.stdout
    assert "Reading" in first.stderr and "7/7" in first.stderr
    before = timetable_rows(data_dir)
    second = run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    assert "lessons: 150 (0 new, 0 removed)" in second.stdout
    assert timetable_rows(data_dir) == before


def test_bad_files_name_the_file_and_field_and_change_nothing(data_dir, tmp_path):
    run_cli("import", "iis", str(FIXTURES / "151004.json"), data_dir=data_dir)
    before = timetable_rows(data_dir)
    malformed = tmp_path / "malformed.json"
    malformed.write_text('{"studentGroupDto": {"name": "1"}, "schedules": ')
    wrong = tmp_path / "wrong-types.json"
    wrong.write_text('{"studentGroupDto": {"name": "1"}, "schedules": {"Понедельник": [{"subject": 5, '
                     '"startLessonTime": "09:00", "endLessonTime": "10:20"}]}}')
    empty = tmp_path / "empty.json"
    empty.write_text("")
    huge = tmp_path / "huge.json"
    with open(huge, "wb") as f:
        f.truncate(50 * 1024 * 1024)
    cases = [
        (malformed, "malformed.json: is not valid JSON."),
        (wrong, "wrong-types.json: schedules.Понедельник[0].subject: expected a string."),
        (empty, "empty.json: is not valid JSON."),
        (huge, "huge.json: is 50 MiB; files larger than 20 MiB are not imported."),
    ]
    for path, message in cases:
        # A bad file among good ones: nothing at all is stored.
        result = run_cli("import", "iis", str(FIXTURES / "010101.json"), str(path), data_dir=data_dir, check=False)
        assert result.returncode != 0, path
        assert message in result.stderr, result.stderr
        assert timetable_rows(data_dir) == before


def expand_feed(server, path, start, end):
    text = server.call("GET", path).text
    calendar = icalendar.Calendar.from_ical(text)
    events = recurring_ical_events.of(calendar).between(start, end + datetime.timedelta(days=1))
    found = collections.Counter()
    for event in events:
        if str(event["UID"]).startswith("task-"):
            continue  # a task's deadline (the personal feed's), not a lesson
        begin, finish = event["DTSTART"].dt, event["DTEND"].dt
        assert str(begin.tzinfo) == "Europe/Minsk"
        summary = str(event["SUMMARY"])
        found[(begin.date().isoformat(), begin.strftime("%H:%M"), finish.strftime("%H:%M"),
               summary.split(" (")[0].split(" · ")[0], str(event.get("LOCATION", "")))] += 1
    return found, calendar


def api_occurrences(server, path, start, end):
    schedule = server.call("GET", path, params={"from": start.isoformat(), "to": end.isoformat()}).json()
    found = collections.Counter()
    for day in schedule["days"]:
        for lesson in day["lessons"]:
            found[(day["date"], lesson["start"], lesson["end"], lesson["subject"],
                   ", ".join(room["name"] for room in lesson["rooms"]))] += 1
    return found


def test_calendar_feeds_equal_the_api_for_the_whole_term(data_dir):
    run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    server = Campus(data_dir).start()
    try:
        for group, expected in (("151004", 392), ("010101", 268)):
            term = server.call("GET", f"/api/v1/groups/{group}").json()["term"]
            start = datetime.date.fromisoformat(term["lessonsStart"])
            end = datetime.date.fromisoformat(term["lessonsEnd"])
            api = api_occurrences(server, f"/api/v1/groups/{group}/schedule", start, end)
            feed, calendar = expand_feed(server, f"/api/v1/groups/{group}/calendar.ics", start, end)
            assert sum(api.values()) == expected
            assert feed == api
            uids = [str(event["UID"]) for event in calendar.walk("VEVENT")]
            assert len(uids) == len(set(uids))
        # A teacher's and a room's feeds too, over the exam session of 913801.
        start, end = datetime.date(2022, 9, 1), datetime.date(2023, 1, 15)
        rooms = server.call("GET", "/api/v1/rooms", params={"q": "413-1"}).json()
        room = rooms["sections"][0]["items"][0]["id"]
        for path in (f"/api/v1/rooms/{room}", "/api/v1/teachers/s-krakasevich"):
            api = api_occurrences(server, f"{path}/schedule", start, end)
            feed, _ = expand_feed(server, f"{path}/calendar.ics", start, end)
            assert sum(api.values()) > 0
            assert feed == api
        # Subscribing needs no account, and the feed says it is a calendar.
        response = server.call("GET", "/api/v1/groups/151004/calendar.ics")
        assert response.headers["Content-Type"] == "text/calendar; charset=utf-8"
    finally:
        server.stop()


def test_the_cli_prints_a_day_and_a_week(data_dir):
    run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    day = run_cli("schedule", "--group", "151004", "--date", "2023-09-25", data_dir=data_dir).stdout
    assert day.startswith("Group 151004 · Monday 25.09.2023 · week 1\n")
    assert "09:00–10:20  ЛК" in day and "sg 1" in day and "sg 2" in day
    week = run_cli("schedule", "--group", "151004", "--date", "2023-09-27", "--week", data_dir=data_dir).stdout
    assert week.count("Group 151004 · ") == 7
    assert "— free" in week
    teacher = run_cli("schedule", "--teacher", "o-smoliakova", "--date", "2023-09-25", data_dir=data_dir).stdout
    assert "151004" in teacher
    room = run_cli("schedule", "--room", "209-4", "--date", "2023-09-25", data_dir=data_dir).stdout
    assert room.startswith("Room 209-4 · Monday 25.09.2023")
    missing = run_cli("schedule", "--group", "000000", data_dir=data_dir, check=False)
    assert missing.returncode != 0 and "There is no group 000000." in missing.stderr


def test_the_cli_imports_while_the_server_runs(data_dir):
    server = Campus(data_dir).start()
    try:
        assert server.call("GET", "/api/v1/groups/151004").status_code == 404
        run_cli("import", "iis", str(FIXTURES / "151004.json"), data_dir=data_dir)
        assert server.call("GET", "/api/v1/groups/151004").status_code == 200
    finally:
        server.stop()


def test_my_calendar_feed_equals_my_schedule_with_its_reminders(data_dir):
    """A student's own feed (group 151004, subgroup 2), expanded by recurring-ical-events, holds
    the occurrences GET /api/v1/me/schedule gives, each with the reminder asked for; a new
    address makes the old one 404."""
    run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    server = Campus(data_dir).start()
    try:
        server.register("ann@example.org")
        token = server.login("ann@example.org")
        assert server.call("PATCH", "/api/v1/me", token=token, json={"group": "151004", "subgroup": 2}).ok
        feed = server.call("PUT", "/api/v1/me/calendar", token=token, json={"reminderMinutes": 30}).json()
        assert feed["reminderMinutes"] == 30
        path = feed["url"][feed["url"].index("/api/"):]
        term = server.call("GET", "/api/v1/groups/151004").json()["term"]
        start = datetime.date.fromisoformat(term["lessonsStart"])
        end = datetime.date.fromisoformat(term["lessonsEnd"])
        schedule = server.call("GET", "/api/v1/me/schedule", token=token,
                               params={"from": start.isoformat(), "to": end.isoformat()}).json()
        api = collections.Counter()
        for day in schedule["days"]:
            for lesson in day["lessons"]:
                assert lesson["subgroup"] in (0, 2)
                api[(day["date"], lesson["start"], lesson["end"], lesson["subject"],
                     ", ".join(room["name"] for room in lesson["rooms"]))] += 1
        # Tasks: an open one's deadline is in the feed with a reminder a day before; a done one's is not.
        due = f"{(start + datetime.timedelta(days=9)).isoformat()}T09:00:00Z"
        task = server.call("POST", "/api/v1/me/tasks", token=token,
                           json={"subject": "ОАиП", "text": "Lab 2", "deadline": due}).json()
        done = server.call("POST", "/api/v1/me/tasks", token=token,
                           json={"subject": "ОАиП", "deadline": due, "done": True}).json()
        found, calendar = expand_feed(server, path, start, end)
        assert sum(api.values()) > 100
        assert found == api
        deadlines = {}
        for event in calendar.walk("VEVENT"):
            alarms = event.walk("VALARM")
            if str(event["UID"]).startswith("task-"):
                deadlines[str(event["UID"]).split("@")[0]] = event
                assert len(alarms) == 1 and alarms[0]["TRIGGER"].dt == datetime.timedelta(days=-1)
                continue
            assert len(alarms) == 1 and alarms[0]["TRIGGER"].dt == datetime.timedelta(minutes=-30)
        assert set(deadlines) == {f"task-{task['id']}"}, deadlines.keys()
        deadline = deadlines[f"task-{task['id']}"]
        assert deadline["DTSTART"].dt == datetime.datetime.fromisoformat(due)
        assert str(deadline["SUMMARY"]) == "Due: ОАиП" and str(deadline["DESCRIPTION"]) == "Lab 2"
        assert done["id"] != task["id"]
        moved = server.call("PUT", "/api/v1/me/calendar", token=token, json={"newAddress": True}).json()
        assert moved["url"] != feed["url"] and "reminderMinutes" not in moved
        assert server.call("GET", path).status_code == 404
    finally:
        server.stop()


WEEKDAYS = ["Понедельник", "Вторник", "Среда", "Четверг", "Пятница", "Суббота", "Воскресенье"]


def bsuir_week(day):
    """BSUIR's study week (1–4): counted from the Monday of the week of 1 September."""
    september = datetime.date(day.year if day.month >= 9 else day.year - 1, 9, 1)
    first_monday = september - datetime.timedelta(days=september.weekday())
    if day < first_monday:
        september = datetime.date(september.year - 1, 9, 1)
        first_monday = september - datetime.timedelta(days=september.weekday())
    return (day - first_monday).days // 7 % 4 + 1


def dotted(text):
    return datetime.datetime.strptime(text, "%d.%m.%Y").date() if text else None


def raw_lessons():
    """Every lesson of the raw IIS files with the weekday it is listed under (None for exams)."""
    for path in FIXTURES.glob("*.json"):
        data = json.loads(path.read_text())
        if not isinstance(data, dict):
            continue
        for name, items in (data.get("schedules") or {}).items():
            for lesson in items:
                yield name, lesson
        for lesson in data.get("exams") or []:
            yield None, lesson


def occurs_on(weekday, lesson, day):
    """Whether a raw IIS lesson takes place on `day`: its date, or its weekday within its dates
    in one of its study weeks."""
    if lesson.get("dateLesson"):
        return dotted(lesson["dateLesson"]) == day
    if weekday is None or WEEKDAYS.index(weekday) != day.weekday():
        return False
    first, last = dotted(lesson.get("startLessonDate")), dotted(lesson.get("endLessonDate"))
    if first and day < first or last and day > last:
        return False
    weeks = lesson.get("weekNumber") or []
    return not weeks or 0 in weeks or bsuir_week(day) in weeks


def busy_rooms_from_the_files(day, start, end):
    """The rooms some lesson of the raw IIS files holds on `day` between `start` and `end`
    (HH:MM), read here without Campus: weekdays, study weeks, date ranges and dated lessons."""
    busy = set()
    for weekday, lesson in raw_lessons():
        if not occurs_on(weekday, lesson, day):
            continue
        if not (lesson["startLessonTime"] < end and start < lesson["endLessonTime"]):
            continue
        for room in lesson.get("auditories") or []:
            busy.add(room.removesuffix(" к.").replace("a", "а"))  # Campus writes Cyrillic а
    return busy


def test_free_rooms_equal_a_computation_from_the_files(data_dir):
    """GET /api/v1/rooms/free for every pair of several days of the autumn term and the exam
    session equals all rooms less those the raw IIS files put a lesson in then."""
    run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    server = Campus(data_dir).start()
    try:
        rooms = server.call("GET", "/api/v1/rooms").json()
        every = {item["name"] for section in rooms["sections"] for item in section["items"]}
        checked = busy_total = 0
        days = [datetime.date(2023, 9, 25) + datetime.timedelta(days=n) for n in range(0, 12)]
        days += [datetime.date(2022, 9, 27), datetime.date(2023, 1, 9), datetime.date(2023, 12, 29)]
        for day in days:
            answer = server.call("GET", "/api/v1/rooms/free", params={"date": day.isoformat(), "pair": 1}).json()
            for pair in answer["pairs"]:
                found = server.call("GET", "/api/v1/rooms/free",
                                    params={"date": day.isoformat(), "pair": pair["number"]}).json()
                free = {item["room"]["name"] for section in found["sections"] for item in section["items"]}
                busy = busy_rooms_from_the_files(day, pair["start"], pair["end"])
                assert free == every - busy, (day, pair)
                assert found["total"] == len(free)
                checked += 1
                busy_total += len(busy)
        assert checked == len(days) * 8 and busy_total > 50
        # Another institution's pairs, set by the CLI while the server runs.
        shown = run_cli("calendar", "--pairs", "08:30-09:50 10:00-11:20", data_dir=data_dir).stdout
        assert "pairs: 08:30-09:50 10:00-11:20" in shown
        refused = run_cli("calendar", "--pairs", "10:00-09:00", data_dir=data_dir, check=False)
        assert refused.returncode != 0
        time.sleep(1.5)  # the server reads the timetable's version at most once a second
        answer = server.call("GET", "/api/v1/rooms/free", params={"date": "2023-09-25", "pair": 2}).json()
        assert [p["start"] for p in answer["pairs"]] == ["08:30", "10:00"] and answer["start"] == "10:00"
        assert server.call("GET", "/api/v1/rooms/free", params={"pair": 3}).status_code == 422
    finally:
        server.stop()


def conflicts_from_the_files(first_day, last_day):
    """The conflicts of the raw IIS files from `first_day` to `last_day`, computed here by the
    rules GET /api/v1/conflicts states: each lesson once (a lesson written in a group's and a
    teacher's file is one), announcements hold nobody, a session written twice (same subject, type,
    times and teachers) is one, and a group's subgroups or a group split by language (same subject
    and type) do not clash."""
    lessons = {}
    for weekday, lesson in raw_lessons():
        if lesson.get("announcement"):
            continue
        teachers = frozenset(e["urlId"] for e in lesson.get("employees") or [])
        rooms = frozenset(r.removesuffix(" к.").replace("a", "а") for r in lesson.get("auditories") or [])
        groups = frozenset(g["name"] for g in lesson.get("studentGroups") or [])
        key = (weekday, lesson.get("dateLesson"), lesson.get("startLessonDate"), lesson.get("endLessonDate"),
               tuple(sorted(lesson.get("weekNumber") or [])), lesson["startLessonTime"], lesson["endLessonTime"],
               lesson["subject"], lesson.get("lessonTypeAbbrev"), lesson.get("numSubgroup") or 0, rooms, teachers)
        if key in lessons:
            lessons[key]["groups"] |= groups
        else:
            lessons[key] = {"weekday": weekday, "lesson": lesson, "teachers": teachers, "rooms": rooms,
                            "groups": set(groups)}
    found = collections.Counter()
    day = first_day
    while day <= last_day:
        held = collections.defaultdict(list)
        for entry in lessons.values():
            if not occurs_on(entry["weekday"], entry["lesson"], day):
                continue
            for kind, names in (("teacher", entry["teachers"]), ("room", entry["rooms"]), ("group", entry["groups"])):
                for name in names:
                    held[(kind, name)].append(entry)
        for (kind, name), entries in held.items():
            for i, a in enumerate(entries):
                for b in entries[i + 1:]:
                    x, y = a["lesson"], b["lesson"]
                    if not (x["startLessonTime"] < y["endLessonTime"] and y["startLessonTime"] < x["endLessonTime"]):
                        continue
                    same = (x["subject"], x.get("lessonTypeAbbrev")) == (y["subject"], y.get("lessonTypeAbbrev"))
                    if same and (x["startLessonTime"], x["endLessonTime"]) == (y["startLessonTime"], y["endLessonTime"]) \
                            and a["teachers"] == b["teachers"]:
                        continue
                    if kind == "group":
                        sx, sy = x.get("numSubgroup") or 0, y.get("numSubgroup") or 0
                        if same or (sx and sy and sx != sy):
                            continue
                    times = sorted([(x["startLessonTime"], x["subject"]), (y["startLessonTime"], y["subject"])])
                    found[(kind, name, day.isoformat(), tuple(times))] += 1
        day += datetime.timedelta(days=1)
    return found


def test_conflicts_equal_a_computation_from_the_files(data_dir):
    """GET /api/v1/conflicts over two academic years equals the conflicts computed from the raw
    IIS files by the rules the API states."""
    run_cli("import", "iis", *IIS_FILES, data_dir=data_dir)
    run_cli("user", "create", "--email", "office@example.org", "--password", "correct horse", "--admin",
            data_dir=data_dir)
    server = Campus(data_dir).start()
    try:
        token = server.login("office@example.org")
        found = collections.Counter()
        for first, last in (("2022-09-01", "2023-08-31"), ("2023-09-01", "2024-08-31")):
            report = server.call("GET", "/api/v1/conflicts", token=token, params={"from": first, "to": last}).json()
            assert report["total"] == len(report["conflicts"])
            for conflict in report["conflicts"]:
                name = conflict["key"] if conflict["kind"] == "teacher" else conflict["name"]
                times = sorted([(conflict["first"]["start"], conflict["first"]["subject"]),
                                (conflict["second"]["start"], conflict["second"]["subject"])])
                found[(conflict["kind"], name, conflict["date"], tuple(times))] += 1
        expected = conflicts_from_the_files(datetime.date(2022, 9, 1), datetime.date(2024, 8, 31))
        assert sum(expected.values()) > 0
        assert found == expected
    finally:
        server.stop()
