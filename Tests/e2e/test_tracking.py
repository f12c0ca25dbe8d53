"""Live tracking from the phone (issue 41): a recorded GPX fixture replayed as positions through
the API, in batches, with a stretch kept back while "offline" and sent later, out of order, and a
batch sent twice, must give the distance and moving time the GPX upload gives (within 0.5 %,
and gpxpy agrees); a finished track becomes the participant's result; bad batches are refused
with a reason. The live page shows the tracks in Chromium, and the phone's page tracks with the
browser's Geolocation API, keeping positions while offline and sending them when back."""
import datetime
import json
import pathlib
import time

import gpxpy
import pytest
import requests

from browsing import wait_for
from conftest import Campus

GPX = pathlib.Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "gpx"
# Its longest segment: 173 timed points around Cerknica lake (the fixture's segments lie far apart,
# and a live track is one segment).
FIXTURE = "cerknicko-jezero.gpx"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """One server for the module: an organizer, two runners and a stranger."""
    campus = Campus(tmp_path_factory.mktemp("tracking") / "campus-data").start()
    campus.register("tracking@example.org", organizer=True, first="Olga", last="Organizer")
    for email, first in (("runner1@example.org", "Rita"), ("runner2@example.org", "Roman"),
                         ("stranger@example.org", "Stas")):
        campus.register(email, first=first, last="Runner")
    tokens = {name: campus.login(f"{name}@example.org") for name in ("tracking", "runner1", "runner2", "stranger")}
    yield campus, tokens
    campus.stop()


def competition(campus, tokens, metric="distance", uploads=True):
    created = campus.call("POST", "/api/v1/competitions", token=tokens["tracking"],
                          json={"name": "Mojstrovka live", "metric": metric, "participantUploads": uploads})
    assert created.status_code == 201, created.text
    return created.json()["id"]


def join(campus, token, competition_id):
    answer = campus.call("POST", f"/api/v1/competitions/{competition_id}/participants/me", token=token)
    assert answer.status_code == 201, answer.text
    return answer.json()["participant"]["id"]


def replayed_points(name=FIXTURE):
    """The fixture's longest segment as a GPX document of its own, and its points with their
    times moved so that the last one is a minute ago."""
    parsed = gpxpy.parse((GPX / name).read_bytes().decode("utf-8-sig"))
    longest = max((segment for track in parsed.tracks for segment in track.segments), key=lambda s: len(s.points))
    parsed.tracks = parsed.tracks[:1]
    parsed.tracks[0].segments = [longest]
    points = longest.points
    assert len(points) > 100 and all(p.time for p in points)
    shift = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=1) - points[-1].time
    return parsed, [{"lat": p.latitude, "lon": p.longitude, "ele": p.elevation,
                     "time": (p.time + shift).isoformat().replace("+00:00", "Z")} for p in points]


def send(campus, token, competition_id, points):
    return campus.call("POST", f"/api/v1/competitions/{competition_id}/tracking", token=token,
                       json={"points": points})


def test_a_replayed_track_with_an_offline_gap_gives_the_gpx_uploads_distance(site):
    campus, tokens = site
    race = competition(campus, tokens)
    runner = join(campus, tokens["runner1"], race)
    other = join(campus, tokens["runner2"], race)
    parsed, points = replayed_points()
    batches = [points[i:i + 10] for i in range(0, len(points), 10)]
    offline = batches[5:9]  # kept on the phone while offline
    for batch in batches[:5] + batches[9:]:
        answer = send(campus, tokens["runner1"], race, batch)
        assert answer.status_code == 200, answer.text
    for batch in offline:  # back online: the late batches arrive out of order
        assert send(campus, tokens["runner1"], race, batch).status_code == 200
    again = send(campus, tokens["runner1"], race, batches[3])  # a batch sent twice (no answer seen)
    assert again.status_code == 200 and again.json()["added"] == 0
    summary = again.json()["tracking"]
    assert summary["pointCount"] == len(points)

    uploaded = campus.call("POST", f"/api/v1/competitions/{race}/participants/{other}/gpx", token=tokens["tracking"],
                           data=parsed.to_xml().encode(), headers={"Content-Type": "application/gpx+xml"})
    assert uploaded.status_code == 200, uploaded.text
    track = uploaded.json()["track"]
    oracle = sum(t.length_2d() for t in parsed.tracks)
    assert abs(summary["distanceMeters"] - track["distanceKm"] * 1000) / (track["distanceKm"] * 1000) < 0.005
    assert abs(summary["distanceMeters"] - oracle) / oracle < 0.005
    assert abs(summary["movingSeconds"] - track["movingSeconds"]) <= 0.005 * track["movingSeconds"]

    full = campus.call("GET", f"/api/v1/competitions/{race}/participants/{runner}/tracking", token=tokens["stranger"])
    assert full.status_code == 200, full.text  # the public sees it while the race is live
    body = full.json()
    assert len(body["points"]) == len(points)
    times = [p["time"] for p in body["points"]]
    assert times == sorted(times)
    assert body["distanceMeters"] == pytest.approx(summary["distanceMeters"])

    finished = campus.call("POST", f"/api/v1/competitions/{race}/tracking/finish", token=tokens["runner1"])
    assert finished.status_code == 200, finished.text
    assert finished.json()["tracking"]["finished"] is True
    assert finished.json()["entry"]["result"] == pytest.approx(summary["distanceMeters"] / 1000)
    late = send(campus, tokens["runner1"], race, points[-1:])
    assert late.status_code == 409 and late.headers["Content-Type"] == "application/problem+json"


def test_an_organizer_confirms_a_track_where_participants_enter_no_results(site):
    campus, tokens = site
    race = competition(campus, tokens, metric="time", uploads=False)
    runner = join(campus, tokens["runner2"], race)
    _, points = replayed_points()
    assert send(campus, tokens["runner2"], race, points).status_code == 200
    finished = campus.call("POST", f"/api/v1/competitions/{race}/tracking/finish", token=tokens["runner2"]).json()
    assert "entry" not in finished
    refused = campus.call("POST", f"/api/v1/competitions/{race}/participants/{runner}/tracking/confirm",
                          token=tokens["runner2"])
    assert refused.status_code == 403
    confirmed = campus.call("POST", f"/api/v1/competitions/{race}/participants/{runner}/tracking/confirm",
                            token=tokens["tracking"])
    assert confirmed.status_code == 200, confirmed.text
    assert confirmed.json()["result"] == round(finished["tracking"]["elapsedSeconds"])


def test_bad_batches_are_refused_with_what_was_wrong(site):
    campus, tokens = site
    race = competition(campus, tokens)
    now = datetime.datetime.now(datetime.timezone.utc)
    good = {"lat": 46.4, "lon": 13.7, "time": now.isoformat().replace("+00:00", "Z")}
    # Not in the competition yet.
    assert send(campus, tokens["stranger"], race, [good]).status_code == 409
    join(campus, tokens["stranger"], race)
    cases = [
        ([dict(good, lat=91)], "points[0].lat"),
        ([dict(good, lon=-181)], "points[0].lon"),
        ([dict(good, time=(now + datetime.timedelta(hours=1)).isoformat().replace("+00:00", "Z"))], "points[0].time"),
        ([dict(good, time="2020-01-01T00:00:00Z")], "points[0].time"),
        ([], "points"),
        ([good] * 1001, "points"),
    ]
    for points, field in cases:
        answer = send(campus, tokens["stranger"], race, points)
        assert answer.status_code in (400, 422), (field, answer.status_code, answer.text)
        assert answer.headers["Content-Type"] == "application/problem+json"
        problem = answer.json()
        assert field in json.dumps(problem), problem
    assert campus.call("POST", f"/api/v1/competitions/{race}/tracking", token=tokens["stranger"],
                       data=b"{", headers={"Content-Type": "application/json"}).status_code == 400
    points_race = competition(campus, tokens, metric="points")
    join(campus, tokens["stranger"], points_race)
    assert send(campus, tokens["stranger"], points_race, [good]).status_code == 409
    assert campus.call("POST", "/api/v1/competitions/999999/tracking", token=tokens["stranger"],
                       json={"points": [good]}).status_code == 404
    assert requests.post(campus.url + f"/api/v1/competitions/{race}/tracking", json={"points": [good]},
                         timeout=10).status_code == 401
    # Nothing stored by the refused batches.
    assert campus.call("GET", f"/api/v1/competitions/{race}/tracking", token=tokens["tracking"]).json() == []



def stored(campus, token, race, user):
    answer = campus.call("GET", f"/api/v1/competitions/{race}/participants/{user}/tracking", token=token)
    return answer.json().get("points", []) if answer.status_code == 200 else []


def test_a_phone_tracks_keeps_positions_offline_and_the_live_map_follows(site, tmp_path):
    """At 390 px: the participant starts tracking on the competition's page (Chromium's
    geolocation, moved by CDP); positions taken while offline wait in localStorage and reach the
    server when the network is back; the live page draws the track and follows another runner's
    new positions over SSE; finishing makes the track the participant's result."""
    from selenium.webdriver.common.by import By
    from browsing import log_in, tap
    from conftest import chromium

    campus, tokens = site
    race = competition(campus, tokens)
    runner = join(campus, tokens["runner2"], race)
    other = join(campus, tokens["runner1"], race)
    phone = chromium(tmp_path / "phone", phone=True)
    phone.implicitly_wait(5)
    try:
        phone.execute_cdp_cmd("Browser.grantPermissions", {"origin": campus.url, "permissions": ["geolocation"]})
        route = [(45.7420 + i * 0.0009, 14.3630 + i * 0.0004) for i in range(8)]

        def move_to(lat, lon):
            phone.execute_cdp_cmd("Emulation.setGeolocationOverride",
                                  {"latitude": lat, "longitude": lon, "accuracy": 5})

        move_to(*route[0])
        log_in(phone, campus, "runner2@example.org", "correct horse")
        phone.get(f"{campus.url}/compete/{race}")
        panel = phone.find_element(By.ID, "tracking")
        assert panel.get_attribute("data-send") == f"/api/v1/competitions/{race}/tracking"
        tap(phone, phone.find_element(By.ID, "tracking-start"))
        assert phone.find_element(By.ID, "tracking-stop").is_displayed()
        wait_for(lambda: len(stored(campus, tokens["runner2"], race, runner)) >= 1, what="the first position")
        for lat, lon in route[1:3]:
            time.sleep(1.1)
            move_to(lat, lon)
        wait_for(lambda: len(stored(campus, tokens["runner2"], race, runner)) >= 3, what="three positions")

        # Offline: the positions wait on the phone.
        phone.execute_cdp_cmd("Network.enable", {})
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": True, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        for lat, lon in route[3:8]:
            time.sleep(1.1)
            move_to(lat, lon)
        waiting = lambda: phone.execute_script(
            "const all = JSON.parse(localStorage.getItem('campus-tracking') || '{}');"
            "return Object.values(all).reduce((n, list) => n + list.length, 0);")
        wait_for(lambda: waiting() >= 5, what="five positions kept offline")
        time.sleep(6)  # a round of sending passes without a network
        assert len(stored(campus, tokens["runner2"], race, runner)) <= 3
        assert waiting() >= 5
        assert "positions" in phone.find_element(By.ID, "tracking-state").text.lower()

        # Back online: everything kept is sent, and the page shows the track's figures.
        phone.execute_cdp_cmd("Network.emulateNetworkConditions", {
            "offline": False, "latency": 0, "downloadThroughput": -1, "uploadThroughput": -1})
        wait_for(lambda: len(stored(campus, tokens["runner2"], race, runner)) >= 8, what="the kept positions")
        wait_for(lambda: waiting() == 0, what="an empty queue")
        figures = phone.find_element(By.ID, "tracking-figures").text
        assert "km" in figures, figures
        tap(phone, phone.find_element(By.ID, "tracking-stop"))

        # The live map: the track as a line, the other runner joining over SSE.
        phone.get(f"{campus.url}/compete/{race}/live")
        line = phone.find_element(By.CSS_SELECTOR, f'g.track[data-user="{runner}"] polyline')
        assert len(line.get_attribute("points").split()) >= 8
        wait_for(lambda: "Live" in phone.find_element(By.ID, "live-status").text, what="the live stream")
        now = datetime.datetime.now(datetime.timezone.utc)
        others = [{"lat": 45.7400 + i * 0.001, "lon": 14.3600, "time": (now - datetime.timedelta(seconds=30 - i))
                   .isoformat().replace("+00:00", "Z")} for i in range(5)]
        assert send(campus, tokens["runner1"], race, others).status_code == 200
        drawn = wait_for(lambda: phone.find_elements(By.CSS_SELECTOR, f'g.track[data-user="{other}"] polyline'),
                         what="the other runner's line")
        wait_for(lambda: len(drawn[0].get_attribute("points").split()) == 5, what="five points drawn")
        row = phone.find_element(By.CSS_SELECTOR, f'#trackers tr[data-user="{other}"]')
        wait_for(lambda: "km" in row.find_element(By.CLASS_NAME, "distance").text, what="the row's distance")
        assert "openstreetmap.org" in row.find_element(By.CLASS_NAME, "osm").get_attribute("href")
        width = phone.execute_script("return document.documentElement.scrollWidth")
        assert width <= 390, f"the live page is {width} px wide at 390"

        # Finishing: the track becomes the result (the competition takes participants' own).
        phone.get(f"{campus.url}/compete/{race}")
        phone.execute_script("window.confirm = () => true;")
        tap(phone, phone.find_element(By.ID, "tracking-finish"))
        wait_for(lambda: "result" in phone.find_element(By.ID, "tracking-state").text, what="the finish")
        entry = campus.call("GET", f"/api/v1/competitions/{race}/participants/{runner}/tracking",
                            token=tokens["runner2"]).json()
        assert entry["finished"] is True
        ranking = campus.call("GET", f"/api/v1/competitions/{race}/ranking", token=tokens["runner2"]).json()
        mine = next(item for item in ranking["items"] if item["participant"]["id"] == runner)
        assert mine["result"] == pytest.approx(entry["distanceMeters"] / 1000, abs=0.01)
    finally:
        phone.quit()
