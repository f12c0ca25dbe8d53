"""Campus in its users' languages, as a browser and translation tools meet it: every catalogue
reads with polib (the library Weblate's and Translate Toolkit's tools use), the demo speaks
Russian by default, every page in every language has no English left on it but data, plural
forms follow CLDR on a rendered page, and a signed-in user's own choice wins over the browser."""
import html
import re
from pathlib import Path

import polib
import pytest
import requests
from selenium import webdriver
from selenium.webdriver.chrome.options import Options
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from conftest import Campus

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "Sources/CampusServer/Resources/translations"
LANGUAGES = ["be", "bg", "ru", "uk"]
# Where the crawl of every page starts; it follows the links it finds from there (below).
START = ["/", "/login", "/register", "/password/forgot", "/timetable", "/timetable?q=1",
         "/timetable/groups/151004", "/timetable/groups?sections=course", "/timetable/rooms?sections=floor",
         "/timetable/teachers?sections=rank", "/compete", "/compete/new", "/compete/stats", "/compete/records",
         "/compete/history", "/compete/mine", "/compete/library", "/listen", "/listen/playlists",
         "/listen/settings", "/listen/library", "/listen/search?q=a", "/profile", "/admin/users",
         "/no-such-page"]
# /api documents the API from openapi.yaml, for developers, in English (docs/TRANSLATING.md).
SKIP = re.compile(r"^/(static|api|media|logout|language)\b|\.(ics|css|js|png|jpg|xml|csv)$")
# CLDR's plural categories of 1, 2, 5, 11, 21, 22 and 25, as indexes of each catalogue's forms.
COUNTS = [1, 2, 5, 11, 21, 22, 25]
FORMS = {"ru": [0, 1, 2, 2, 0, 1, 2], "uk": [0, 1, 2, 2, 0, 1, 2], "be": [0, 1, 2, 2, 0, 1, 2],
         "bg": [0, 1, 1, 1, 1, 1, 1]}


def catalogue(code):
    return polib.pofile(str(TRANSLATIONS / f"{code}.po"))


def english_left(code):
    """A matcher of the English messages whose translation differs from them, with any values in
    their {placeholders}: a text on a page that it matches whole was not translated."""
    alternatives = []
    for entry in catalogue(code):
        sources = [entry.msgid] + ([entry.msgid_plural] if entry.msgid_plural else [])
        translations = list(entry.msgstr_plural.values()) if entry.msgid_plural else [entry.msgstr]
        for source in sources:
            literal = re.sub(r"\{\w+\}", "", source)
            if source in translations or "<" in source or len(re.findall(r"[A-Za-z]", literal)) < 3:
                continue
            parts = re.split(r"(\{\w+\})", " ".join(source.split()))
            alternatives.append("".join(".+?" if re.fullmatch(r"\{\w+\}", p) else re.escape(p) for p in parts))
    return re.compile("^(?:" + "|".join(alternatives) + ")$")


def texts(page):
    """Every text a person reads on a page: text between tags, labels in attributes, each also
    in its parts where the page joins several with " · "; not code (`<code>`: commands, API
    values)."""
    page = re.sub(r"<script.*?</script>|<style.*?</style>|<code>.*?</code>", " ", page, flags=re.S)
    page = re.sub(r'<div id="campus-messages".*?</div>', " ", page, flags=re.S)
    page = re.sub(r'<select id="language-choice".*?</select>', " ", page, flags=re.S)
    found = re.findall(r'(?:placeholder|title|aria-label|alt)="([^"]*)"', page) + re.split(r"<[^>]+>", page)
    result = set()
    for text in found:
        text = " ".join(html.unescape(text).split())
        if text:
            result.add(text)
            result.update(part.strip() for part in text.split(" · ") if part.strip())
    return result


def signed_in(campus, code, email="admin@campus.test", password="campus-admin"):
    session = requests.Session()
    session.headers["Accept-Language"] = f"{code},en;q=0.5"
    login = session.get(campus.url + "/login", timeout=10).text
    token = re.search(r'name="_csrf" value="([^"]+)"', login).group(1)
    answer = session.post(campus.url + "/login", data={"_csrf": token, "email": email, "password": password},
                          timeout=10)
    assert answer.ok and "/login" not in answer.url, answer.url
    return session


def crawl(session, url, limit=140):
    """The pages reachable from START by links, at most two of each shape (/compete/N/edit)."""
    seen, shapes, queue, pages = set(START), {}, list(START), {}
    while queue and len(pages) < limit:
        path = queue.pop(0)
        response = session.get(url + path, headers={"Accept": "text/html"}, timeout=10)
        if "text/html" not in response.headers.get("Content-Type", ""):
            continue
        pages[path] = response.text
        for link in re.findall(r'href="(/[^"#]*)"', response.text):
            link = html.unescape(link)
            shape = re.sub(r"\d+", "N", link.split("?")[0])
            if link in seen or SKIP.search(link.split("?")[0]) or shapes.get(shape, 0) >= 2:
                continue
            seen.add(link)
            shapes[shape] = shapes.get(shape, 0) + 1
            queue.append(link)
    return pages


@pytest.mark.parametrize("code", LANGUAGES)
def test_catalogues_read_with_polib_complete_and_with_their_plural_forms(code):
    pot = polib.pofile(str(TRANSLATIONS / "campus.pot"))
    po = catalogue(code)
    assert po.metadata["Language"] == code
    assert po.percent_translated() == 100
    assert {(e.msgctxt, e.msgid) for e in po} == {(e.msgctxt, e.msgid) for e in pot}
    forms = int(re.search(r"nplurals=(\d+)", po.metadata["Plural-Forms"]).group(1))
    assert forms == (2 if code == "bg" else 3)
    for entry in po:
        if entry.msgid_plural:
            assert len(entry.msgstr_plural) == forms and all(entry.msgstr_plural.values())


def test_the_demo_speaks_russian_unless_told(data_dir):
    server = Campus(data_dir, demo=True, language=None).start()
    try:
        page = requests.get(server.url + "/", timeout=10).text
        assert '<html lang="ru">' in page
        assert "Расписание" in page
    finally:
        server.stop()


def test_the_check_finds_english(campus):
    """The check below would see English: the English pages are full of it."""
    left = english_left("ru")
    pages = crawl(signed_in(campus, "en"), campus.url, limit=20)
    found = {text for page in pages.values() for text in texts(page) if left.match(text)}
    assert {"Sign out", "Timetable"} & found or len(found) > 50, sorted(found)[:20]


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_english_is_left_on_any_page(campus, code):
    left = english_left(code)
    pages = crawl(signed_in(campus, code), campus.url)
    assert len(pages) > 60, sorted(pages)
    problems = []
    for path, page in pages.items():
        if f'<html lang="{code}">' not in page:
            problems.append(f"{path}: not lang={code}")
        problems += [f"{path}: {text!r}" for text in sorted(texts(page)) if left.match(text)]
    assert not problems, f"{code}: English left on {len(problems)} places:\n" + "\n".join(problems[:40])


@pytest.mark.parametrize("code", LANGUAGES)
def test_plural_forms_on_a_page_follow_cldr(campus, code):
    """The accounts page says how many accounts a search found: 1, 2, 5, 11, 21, 22 and 25 of
    them, each with the form CLDR gives the number in the language."""
    tokens = ["qa", "qb", "qc", "qd", "qe", "qf", "qg"]
    for person in range(1, 26):
        last = "".join(token for token, count in zip(tokens, COUNTS) if person <= count)
        campus.register(f"plural{person}@example.org", first="Plural", last=last)
    entry = next(e for e in catalogue(code) if e.msgid == "{count} account")
    session = signed_in(campus, code)
    for token, count, form in zip(tokens, COUNTS, FORMS[code]):
        page = session.get(campus.url + f"/admin/users?q={token}", timeout=10).text
        expected = entry.msgstr_plural[form].replace("{count}", str(count))
        assert expected in texts(page), f"{code} {count}: {expected!r} not on the page"


def chromium(tmp_path, accept_language):
    options = Options()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1200,900",
                     f"--user-data-dir={tmp_path / 'chromium'}", f"--lang={accept_language}"):
        options.add_argument(argument)
    options.add_experimental_option("prefs", {"intl.accept_languages": accept_language})
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_browser_gets_its_language_and_a_users_choice_wins(campus, code, tmp_path):
    left = english_left(code)
    # A visitor whose browser asks for the language.
    browser = chromium(tmp_path / "visitor", code)
    try:
        for path in ["/", "/login", "/timetable/groups/151004", "/no-such-page"]:
            browser.get(campus.url + path)
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == code, path
            assert not [t for t in texts(browser.page_source) if left.match(t)], path
    finally:
        browser.quit()
    # A user who chose the language, in a browser that asks for English.
    email = f"chooser-{code}@example.org"
    campus.register(email, first="Chooser", last=code)
    token = campus.login(email)
    assert campus.call("PATCH", "/api/v1/me", token=token, json={"language": code}).json()["language"] == code
    browser = chromium(tmp_path / "user", "en")
    try:
        browser.get(campus.url + "/login")
        assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == "en"
        browser.find_element(By.ID, "email").send_keys(email)
        browser.find_element(By.ID, "password").send_keys("correct horse")
        browser.find_element(By.ID, "login-submit").click()
        for path in ["/", "/timetable/groups/151004", "/compete", "/listen", "/profile"]:
            browser.get(campus.url + path)
            assert browser.find_element(By.TAG_NAME, "html").get_attribute("lang") == code, path
            assert not [t for t in texts(browser.page_source) if left.match(t)], path
    finally:
        browser.quit()
