"""Compete end to end: a live ranking in two real browsers, GPX distances against gpxpy, and the
CSV export read by Python's csv module."""
import csv
import io
import pathlib

import gpxpy
import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from browsing import wait_text

GPX = pathlib.Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "gpx"


def make_browser(folder):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,1000",
                     f"--user-data-dir={folder}"):
        options.add_argument(argument)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    driver.implicitly_wait(5)
    return driver


@pytest.fixture
def two_browsers(tmp_path):
    organizer, participant = make_browser(tmp_path / "a"), make_browser(tmp_path / "b")
    yield organizer, participant
    organizer.quit()
    participant.quit()


def log_in(browser, site, email, password="correct horse"):
    browser.get(site + "/login")
    browser.find_element(By.ID, "email").send_keys(email)
    browser.find_element(By.ID, "password").send_keys(password)
    browser.find_element(By.ID, "password").submit()
    WebDriverWait(browser, 10).until(EC.presence_of_element_located((By.ID, "logout")))


def accept_confirm(browser):
    WebDriverWait(browser, 5).until(EC.alert_is_present())
    browser.switch_to.alert.accept()


def ranking_rows(browser):
    try:
        return [[cell.text for cell in row.find_elements(By.TAG_NAME, "td")]
                for row in browser.find_elements(By.CSS_SELECTOR, "#ranking tbody tr")]
    except StaleElementReferenceException:
        return []


def wait_rows(browser, expected):
    WebDriverWait(browser, 10).until(lambda _: ranking_rows(browser) == expected)


def test_organizer_creates_participant_joins_and_both_see_results_live(campus, two_browsers):
    organizer, participant = two_browsers
    campus.register("race@example.org", first="Rita", last="Race", organizer=True)
    campus.register("runner@example.org", first="Ron", last="Runner")
    campus.register("walker@example.org", first="Wanda", last="Walker")
    site = campus.url

    # The organizer creates a time race with the form.
    log_in(organizer, site, "race@example.org")
    organizer.get(site + "/compete/new")
    organizer.find_element(By.ID, "name").send_keys("Stairs sprint")
    organizer.find_element(By.ID, "description").send_keys("Ground floor to the roof.")
    organizer.find_element(By.ID, "metric-time").click()
    organizer.find_element(By.ID, "submit").click()
    wait_text(organizer, (By.ID, "competition-name"), "Stairs sprint")
    competition = int(organizer.find_element(By.ID, "competition").get_attribute("data-id"))

    # The participant finds it among the active competitions and joins.
    log_in(participant, site, "runner@example.org")
    participant.get(site + "/compete?q=stairs")
    participant.find_element(By.LINK_TEXT, "Stairs sprint").click()
    participant.find_element(By.ID, "join").click()
    accept_confirm(participant)
    WebDriverWait(participant, 10).until(EC.presence_of_element_located((By.ID, "leave")))
    wait_rows(participant, [["–", "Ron Runner", "no result yet"]])

    # Another runner joins through the API; both open pages show it without a reload.
    walker = campus.login("walker@example.org")
    organizer.get(site + f"/compete/{competition}")
    WebDriverWait(organizer, 10).until(
        EC.text_to_be_present_in_element((By.ID, "live-status"), "Live"))
    WebDriverWait(participant, 10).until(
        EC.text_to_be_present_in_element((By.ID, "live-status"), "Live"))
    participant.execute_script("window.stillThisPage = true")
    organizer.execute_script("window.stillThisPage = true")
    assert campus.call("POST", f"/api/v1/competitions/{competition}/participants/me", token=walker).status_code == 201
    wait_rows(participant, [["–", "Ron Runner", "no result yet"], ["–", "Wanda Walker", "no result yet"]])
    wait_rows(organizer, [["–", "Ron Runner", "no result yet"], ["–", "Wanda Walker", "no result yet"]])

    # The organizer enters Ron's time in the form; the participant's page changes by itself.
    organizer.get(site + f"/compete/{competition}")
    ron = organizer.find_element(By.CSS_SELECTOR, "#participants tr[data-user] input.result-input[aria-label='Result of Ron Runner']")
    ron.send_keys("12:34")
    ron.submit()
    wait_text(organizer, (By.CLASS_NAME, "flash"), "Result saved")
    wait_rows(participant, [["1", "Ron Runner", "12:34"], ["–", "Wanda Walker", "no result yet"]])
    assert participant.execute_script("return window.stillThisPage") is True

    # A faster time entered through the API reaches both pages live, ranked first.
    token = campus.login("race@example.org")
    user_ids = {entry["participant"]["name"]: entry["participant"]["id"] for entry in
                campus.call("GET", f"/api/v1/competitions/{competition}/participants", token=token).json()}
    organizer.execute_script("window.stillThisPage = true")
    response = campus.call("PUT", f"/api/v1/competitions/{competition}/participants/{user_ids['Wanda Walker']}/result",
                           token=token, json={"value": 700})
    assert response.status_code == 200, response.text
    expected = [["1", "Wanda Walker", "11:40"], ["2", "Ron Runner", "12:34"]]
    wait_rows(participant, expected)
    wait_rows(organizer, expected)
    assert participant.execute_script("return window.stillThisPage") is True
    assert organizer.execute_script("return window.stillThisPage") is True

    # The participant's history and stats show the result.
    participant.get(site + "/compete/history")
    assert "Stairs sprint" in participant.find_element(By.ID, "joined").text
    assert "rank 2" in participant.find_element(By.ID, "joined").text
    participant.get(site + "/compete/stats")
    assert participant.find_element(By.ID, "total-minutes").text == "12.57"
    assert participant.find_elements(By.CSS_SELECTOR, "svg.chart circle")

    # Deactivated: the participant can no longer leave.
    organizer.get(site + f"/compete/{competition}")
    organizer.find_element(By.ID, "deactivate").click()
    accept_confirm(organizer)
    WebDriverWait(organizer, 10).until(EC.presence_of_element_located((By.ID, "activate")))
    participant.get(site + f"/compete/{competition}")
    assert participant.find_element(By.ID, "old").text == "Old competition. You cannot join nor leave."
    assert not participant.find_elements(By.ID, "leave")


@pytest.mark.parametrize("name", sorted(p.name for p in GPX.glob("*.gpx")))
def test_gpx_distances_agree_with_gpxpy(campus, name):
    campus.register("gpx@example.org", organizer=True)
    campus.register("rider@example.org")
    organizer, rider = campus.login("gpx@example.org"), campus.login("rider@example.org")
    created = campus.call("POST", "/api/v1/competitions", token=organizer,
                          json={"name": "Ride " + name, "metric": "distance"}).json()
    me = campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=rider).json()
    data = (GPX / name).read_bytes()
    response = campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/gpx",
                           token=organizer, data=data, headers={"Content-Type": "application/gpx+xml"})
    oracle = gpxpy.parse(data.decode("utf-8-sig"))
    length = sum(track.length_2d() for track in oracle.tracks)
    if length == 0:
        assert response.status_code == 422, response.text
        assert response.headers["Content-Type"] == "application/problem+json"
        assert response.json()["detail"]
        return
    assert response.status_code == 200, response.text
    entry = response.json()
    assert abs(entry["result"] * 1000 - length) / length < 0.005
    assert entry["track"]["points"] == oracle.get_track_points_no()


def test_results_csv_reads_back(campus):
    campus.register("csv@example.org", organizer=True)
    campus.register("comma@example.org", first='Jo "Quick", Jr', last="Smith")
    organizer, runner = campus.login("csv@example.org"), campus.login("comma@example.org")
    created = campus.call("POST", "/api/v1/competitions", token=organizer,
                          json={"name": "Quiz", "metric": "points", "unit": "goals"}).json()
    me = campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=runner).json()
    campus.call("PUT", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/result",
                token=organizer, json={"value": 7.5})
    response = campus.call("GET", f"/api/v1/competitions/{created['id']}/results.csv", token=organizer)
    assert response.status_code == 200
    rows = list(csv.DictReader(io.StringIO(response.content.decode("utf-8"), newline="")))
    assert len(rows) == 1
    assert rows[0]["name"] == 'Jo "Quick", Jr Smith'
    assert rows[0]["rank"] == "1"
    assert rows[0]["result"] == "7.5"
    assert rows[0]["result_text"] == "7.5 goals"


def test_a_co_organizer_enters_results_but_neither_deletes_nor_keeps_others_out(campus, browser):
    """Seed 002's "several organizers managing one competition", at phone width: the owner adds a
    co-organizer by email on the competition's page; the co-organizer enters a result, sees no
    Delete or Deactivate, and steps down."""
    campus.register("olga@example.org", first="Olga", last="Owner", organizer=True)
    campus.register("cora@example.org", first="Cora", last="Helper")
    campus.register("ron@example.org", first="Ron", last="Runner")
    owner, runner = campus.login("olga@example.org"), campus.login("ron@example.org")
    created = campus.call("POST", "/api/v1/competitions", token=owner,
                          json={"name": "Relay", "metric": "points", "unit": "points"}).json()
    page = f"{campus.url}/compete/{created['id']}"
    ron = campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=runner).json()
    browser.set_window_size(390, 844)

    log_in(browser, campus.url, "olga@example.org")
    browser.get(page)
    browser.find_element(By.ID, "organizer-email").send_keys("cora@example.org")
    browser.find_element(By.ID, "organizer-email").submit()
    wait_text(browser, (By.ID, "organizers"), "Cora Helper")
    browser.delete_all_cookies()

    log_in(browser, campus.url, "cora@example.org")
    browser.get(page)
    browser.find_element(By.ID, "organizer")
    browser.implicitly_wait(0)  # what must be absent is looked for once, not for five seconds
    assert not browser.find_elements(By.ID, "delete") and not browser.find_elements(By.ID, "deactivate")
    assert not browser.find_elements(By.ID, "add-organizer")
    browser.implicitly_wait(5)
    row = browser.find_element(By.CSS_SELECTOR, f"#participants tr[data-user='{ron['participant']['id']}']")
    row.find_element(By.NAME, "value").send_keys("12")
    row.find_element(By.NAME, "value").submit()
    wait_rows(browser, [["1", "Ron Runner", "12 points"]])
    step_down = browser.find_element(By.CSS_SELECTOR, "#organizers button")
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", step_down)  # above the tab bar
    step_down.click()
    browser.implicitly_wait(0)
    WebDriverWait(browser, 10).until(lambda _: not browser.find_elements(By.ID, "organizer"))
    audit = campus.call("GET", "/api/v1/audit?limit=50", token=owner)
    assert audit.status_code == 403  # the log is the admins'
