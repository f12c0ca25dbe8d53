"""Campus in its users' languages, as a browser and translation tools meet it: every catalogue
reads with polib (the library Weblate's and Translate Toolkit's tools use), the demo speaks
Russian by default, and every page in every language has no English left on it but data."""
import html
import re
from pathlib import Path

import polib
import pytest
import requests

from conftest import Campus

ROOT = Path(__file__).resolve().parents[2]
TRANSLATIONS = ROOT / "Sources/CampusServer/Resources/translations"
LANGUAGES = ["be", "bg", "ru", "uk"]
PAGES = ["/", "/login", "/register", "/password/forgot", "/timetable", "/timetable/groups/151004",
         "/timetable/groups", "/compete", "/compete/stats", "/compete/records", "/compete/history",
         "/listen", "/listen/playlists", "/listen/settings", "/profile", "/no-such-page"]
# /api documents the API from openapi.yaml, for developers, in English (docs/TRANSLATING.md).


def visible_text(page):
    page = re.sub(r"<script.*?</script>|<style.*?</style>", " ", page, flags=re.S)
    page = re.sub(r'<div id="campus-messages".*?</div>', " ", page, flags=re.S)
    page = re.sub(r"<select id=\"language-choice\".*?</select>", " ", page, flags=re.S)
    attributes = " ".join(re.findall(r'(?:placeholder|title|aria-label|alt)="([^"]*)"', page))
    return html.unescape(re.sub(r"<[^>]+>", " ", page) + " " + attributes)


def source_sentences():
    """English messages that could only be ours: several words, no placeholders."""
    pot = polib.pofile(str(TRANSLATIONS / "campus.pot"))
    return {entry.msgid for entry in pot
            if " " in entry.msgid and len(entry.msgid) >= 12 and "{" not in entry.msgid and "<" not in entry.msgid}


@pytest.mark.parametrize("code", LANGUAGES)
def test_catalogues_read_with_polib_complete_and_with_their_plural_forms(code):
    pot = polib.pofile(str(TRANSLATIONS / "campus.pot"))
    po = polib.pofile(str(TRANSLATIONS / f"{code}.po"))
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


@pytest.mark.parametrize("code", LANGUAGES)
def test_no_english_is_left_on_any_page(campus, code):
    sentences = source_sentences()
    catalogue = {(e.msgctxt, e.msgid): e.msgstr for e in polib.pofile(str(TRANSLATIONS / f"{code}.po"))}
    same = {msgid for (context, msgid), text in catalogue.items() if text == msgid}
    signed_in = requests.Session()
    signed_in.headers["Accept-Language"] = f"{code},en;q=0.5"
    login = signed_in.get(campus.url + "/login", timeout=10).text
    token = re.search(r'name="_csrf" value="([^"]+)"', login).group(1)
    answer = signed_in.post(campus.url + "/login", data={
        "_csrf": token, "email": "admin@campus.test", "password": "campus-admin"}, timeout=10)
    assert answer.ok
    for path in PAGES:
        response = signed_in.get(campus.url + path, headers={"Accept": "text/html"}, timeout=10)
        assert f'<html lang="{code}">' in response.text, path
        text = visible_text(response.text)
        left = sorted(s for s in sentences - same if s in text)
        assert not left, f"{code} {path}: English left: {left[:10]}"
