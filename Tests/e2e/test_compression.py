"""Light on the wire (issue 36, item 3): what a browser reads is sent gzip-compressed to a client
that accepts it, and decodes to the very bytes sent uncompressed; media and images never are; a
range of audio never is; a HEAD says what its GET says; static files linked with their digest are
kept a year, and an ETag of a compressed answer revalidates."""
import gzip
import re

import requests


def fetch(server, path, encoding, method="GET", headers=None, token=None):
    """The answer with its body as sent (not decoded)."""
    sent = {"Accept-Encoding": encoding, **(headers or {})}
    if token:
        sent["Authorization"] = f"Bearer {token}"
    response = requests.request(method, server.url + path, headers=sent, stream=True, timeout=30)
    body = response.raw.read(decode_content=False)
    return response, body


def test_text_is_gzipped_and_decodes_to_the_same_bytes(campus):
    page, html = fetch(campus, "/timetable/groups/151004", "identity")
    assert page.status_code == 200
    style_sheet = re.search(r'href="(/static/campus\.css\?v=[0-9a-f]+)"', html.decode())
    script = re.search(r'src="(/static/campus\.js\?v=[0-9a-f]+)"', html.decode())
    assert style_sheet and script, "static files are linked with their digest"
    paths = ["/", "/timetable/groups/151004", "/api/v1/groups", "/api/v1/groups/151004/calendar.ics",
             style_sheet.group(1), script.group(1), "/static/icon.svg", "/openapi.yaml", "/api/v1/nowhere"]
    for path in paths:
        plain, plain_body = fetch(campus, path, "identity")
        packed, packed_body = fetch(campus, path, "gzip, deflate, br")
        assert plain.status_code == packed.status_code, path
        assert "accept-encoding" in packed.headers.get("Vary", "").lower(), path
        assert plain.headers.get("Content-Encoding") is None, path
        if len(plain_body) < 1024:
            assert packed.headers.get("Content-Encoding") is None, path
            continue
        assert packed.headers.get("Content-Encoding") == "gzip", path
        assert int(packed.headers["Content-Length"]) == len(packed_body), path
        assert len(packed_body) < len(plain_body), path
        if path in ("/", "/timetable/groups/151004"):
            # Pages carry a CSRF token of their own each time; files and data do not.
            assert gzip.decompress(packed_body).decode().lower().startswith("<!doctype html>"), path
        else:
            assert gzip.decompress(packed_body) == plain_body, path
    # The group's week page and its style sheet, as a browser that accepts gzip receives them.
    week, week_body = fetch(campus, "/timetable/groups/151004", "gzip")
    css, css_body = fetch(campus, style_sheet.group(1), "gzip")
    assert len(week_body) + len(css_body) < 35_000


def test_weights_and_other_codings_are_respected(campus):
    for encoding in ["identity", "gzip;q=0", "br", "deflate", "*;q=0", ""]:
        answer, _ = fetch(campus, "/timetable/groups/151004", encoding)
        assert answer.headers.get("Content-Encoding") is None, encoding
    for encoding in ["GZIP", "x-gzip", "*", "br;q=1, gzip;q=0.5"]:
        answer, _ = fetch(campus, "/timetable/groups/151004", encoding)
        assert answer.headers.get("Content-Encoding") == "gzip", encoding


def test_a_head_says_what_its_get_says(campus):
    for path in ["/", "/api/v1/groups", "/static/campus.css"]:
        get, _ = fetch(campus, path, "gzip")
        head, head_body = fetch(campus, path, "gzip", method="HEAD")
        assert head.status_code == get.status_code == 200, path
        assert head_body == b"", path
        for name in ["Content-Type", "Content-Encoding", "Vary", "Cache-Control"]:
            assert head.headers.get(name) == get.headers.get(name), (path, name)
        if path != "/":  # a page's length differs by its CSRF token's
            assert head.headers.get("Content-Length") == get.headers.get("Content-Length"), path


def test_media_images_and_ranges_are_never_compressed(campus):
    token = campus.login("admin@campus.test", "campus-admin")
    found = campus.call("GET", "/api/v1/search?q=Guide", token=token).json()["items"]
    book = next(item for item in found if item["kind"] == "audiobook")
    detail = campus.call("GET", f"/api/v1/audiobooks/{book['id']}", token=token)
    assert detail.status_code == 200, detail.text
    stream = detail.json()["items"][0]["streamUrl"]
    whole, whole_body = fetch(campus, stream, "gzip", token=token)
    assert whole.status_code == 200 and whole.headers["Content-Type"].startswith("audio/")
    assert whole.headers.get("Content-Encoding") is None and len(whole_body) > 1024
    part, part_body = fetch(campus, stream, "gzip", headers={"Range": "bytes=100-4099"}, token=token)
    assert part.status_code == 206 and part.headers.get("Content-Encoding") is None
    assert part_body == whole_body[100:4100]
    icon, icon_body = fetch(campus, "/static/icon-512.png", "gzip")
    assert icon.status_code == 200 and icon.headers.get("Content-Encoding") is None
    assert icon_body.startswith(b"\x89PNG")


def test_kept_files_and_revalidation(campus):
    page, _ = fetch(campus, "/", "gzip")
    style_sheet = re.search(r'href="(/static/campus\.css\?v=[0-9a-f]+)"', requests.get(campus.url + "/").text).group(1)
    # A visitor's page is asked for again each time; a file linked with its digest is kept a year.
    assert page.headers["Cache-Control"] == "no-cache"
    linked, _ = fetch(campus, style_sheet, "gzip")
    assert "immutable" in linked.headers["Cache-Control"] and "max-age=31536000" in linked.headers["Cache-Control"]
    for stale in ["/static/campus.css", "/static/campus.css?v=000000000000"]:
        answer, _ = fetch(campus, stale, "gzip")
        assert answer.headers["Cache-Control"] == "no-cache", stale
    # A kept answer's ETag names its encoding, and either revalidates.
    packed, _ = fetch(campus, "/api/v1/groups", "gzip")
    plain, _ = fetch(campus, "/api/v1/groups", "identity")
    assert packed.headers["ETag"].endswith('-gzip"') and packed.headers["ETag"] != plain.headers["ETag"]
    again, body = fetch(campus, "/api/v1/groups", "gzip", headers={"If-None-Match": packed.headers["ETag"]})
    assert again.status_code == 304 and body == b""
    again, body = fetch(campus, "/api/v1/groups", "identity", headers={"If-None-Match": plain.headers["ETag"]})
    assert again.status_code == 304 and body == b""
