"""Tracks in TCX and FIT beside GPX, and each gzip-compressed (issue 41): the recorded GPX
fixtures written as TCX and as FIT, read back by outside parsers (tcxreader, fitdecode, which
also checks the FIT checksums), and uploaded to Campus, whose distance must agree with the one
computed from the parsers' points by gpxpy within 0.5 %. A damaged FIT file and a gzip bomb are
refused with a reason."""
import gzip
import io
import pathlib
import struct

import fitdecode
import gpxpy
import gpxpy.geo
import pytest
from tcxreader.tcxreader import TCXReader

from conftest import Campus

GPX = pathlib.Path(__file__).resolve().parents[3] / "shared" / "fixtures" / "gpx"
FIT_EPOCH = 631065600
CRC_TABLE = [0x0000, 0xCC01, 0xD801, 0x1400, 0xF001, 0x3C00, 0x2800, 0xE401, 0xA001, 0x6C00, 0x7800, 0xB401,
             0x5000, 0x9C01, 0x8801, 0x4400]


def points_of(name):
    """Every track point of a fixture, in order, as one list."""
    parsed = gpxpy.parse((GPX / name).read_bytes().decode("utf-8-sig"))
    return [point for track in parsed.tracks for segment in track.segments for point in segment.points]


FIXTURES = [p.name for p in sorted(GPX.glob("*.gpx")) if len(points_of(p.name)) >= 2]


def fit_crc(data, crc=0):
    for byte in data:
        for nibble in (byte & 0xF, byte >> 4):
            low = CRC_TABLE[crc & 0xF]
            crc = (crc >> 4) & 0x0FFF
            crc = crc ^ low ^ CRC_TABLE[nibble]
    return crc


def fit_time(time):
    """Seconds since FIT's epoch, or the invalid value for no time or one FIT cannot hold."""
    seconds = int(time.timestamp()) - FIT_EPOCH if time else -1
    return seconds if 0 <= seconds < 0xFFFFFFFF else 0xFFFFFFFF


def fit_file(points):
    """A FIT activity as a device writes one: a file_id message, then a record per point, its
    record definition big-endian (the file_id little-endian), with a 14-byte header and CRCs."""
    first = points[0].time
    body = bytearray()
    body += bytes([0x40, 0, 0]) + struct.pack("<HB", 0, 3) + bytes([0, 1, 0x00, 1, 2, 0x84, 4, 4, 0x86])
    body += bytes([0x00]) + struct.pack("<BHI", 4, 255, fit_time(first))
    body += bytes([0x41, 0, 1]) + struct.pack(">HB", 20, 4) + bytes([253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 78, 4, 0x86])
    for point in points:
        stamp = fit_time(point.time)
        altitude = int(round((point.elevation + 500) * 5)) if point.elevation is not None else 0xFFFFFFFF
        body += bytes([0x01]) + struct.pack(">Iiii", stamp, round(point.latitude / 180 * 2**31),
                                            round(point.longitude / 180 * 2**31), altitude)
    header = struct.pack("<BBHI", 14, 0x20, 2132, len(body)) + b".FIT"
    header += struct.pack("<H", fit_crc(header))
    data = header + bytes(body)
    return data + struct.pack("<H", fit_crc(data))


def tcx_file(points):
    trackpoints = []
    for point in points:
        time = f"<Time>{point.time.strftime('%Y-%m-%dT%H:%M:%SZ')}</Time>" if point.time else ""
        altitude = f"<AltitudeMeters>{point.elevation}</AltitudeMeters>" if point.elevation is not None else ""
        trackpoints.append(f"<Trackpoint>{time}<Position><LatitudeDegrees>{point.latitude}</LatitudeDegrees>"
                           f"<LongitudeDegrees>{point.longitude}</LongitudeDegrees></Position>{altitude}</Trackpoint>")
    start = next((p.time for p in points if p.time), None)
    lap_start = start.strftime('%Y-%m-%dT%H:%M:%SZ') if start else "2020-01-01T00:00:00Z"
    return ('<?xml version="1.0" encoding="UTF-8"?>\n'
            '<TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">'
            f'<Activities><Activity Sport="Running"><Id>{lap_start}</Id><Lap StartTime="{lap_start}"><Track>'
            + "".join(trackpoints) + "</Track></Lap></Activity></Activities></TrainingCenterDatabase>").encode()


def oracle_from_fit(data):
    locations = []
    with fitdecode.FitReader(io.BytesIO(data)) as fit:
        for frame in fit:
            if frame.frame_type == fitdecode.FIT_FRAME_DATA and frame.name == "record":
                lat, lon = frame.get_value("position_lat"), frame.get_value("position_long")
                if lat is not None and lon is not None:
                    locations.append(gpxpy.geo.Location(lat * 180 / 2**31, lon * 180 / 2**31))
    return locations


def oracle_from_tcx(data, tmp_path):
    path = tmp_path / "track.tcx"
    path.write_bytes(data)
    exercise = TCXReader().read(str(path))
    return [gpxpy.geo.Location(p.latitude, p.longitude) for p in exercise.trackpoints if p.latitude is not None]


@pytest.fixture(scope="module")
def upload(tmp_path_factory):
    """One server for the module (no demo): each upload goes to a competition of its own."""
    campus = Campus(tmp_path_factory.mktemp("tracks") / "campus-data").start()
    campus.register("tracks@example.org", organizer=True)
    campus.register("rider@example.org")
    organizer, rider = campus.login("tracks@example.org"), campus.login("rider@example.org")

    def send(data, content_type):
        created = campus.call("POST", "/api/v1/competitions", token=organizer,
                              json={"name": "Ride", "metric": "distance"}).json()
        me = campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/me", token=rider).json()
        return campus.call("POST", f"/api/v1/competitions/{created['id']}/participants/{me['participant']['id']}/gpx",
                           token=organizer, data=data, headers={"Content-Type": content_type})
    yield send
    campus.stop()


@pytest.mark.parametrize("name", FIXTURES)
def test_tcx_and_fit_give_the_distance_the_parsers_give(upload, name, tmp_path):
    points = points_of(name)
    files = {"application/vnd.ant.fit": (fit_file(points), oracle_from_fit)}
    if all(p.time for p in points):  # tcxreader needs times
        files["application/vnd.garmin.tcx+xml"] = (tcx_file(points), lambda data: oracle_from_tcx(data, tmp_path))
    for content_type, (data, oracle) in files.items():
        locations = oracle(data)
        length = gpxpy.geo.length_2d(locations)
        for sent, sent_type in [(data, content_type), (gzip.compress(data), "application/gzip")]:
            response = upload(sent, sent_type)
            assert response.status_code == 200, (content_type, sent_type, response.text)
            entry = response.json()
            assert abs(entry["result"] * 1000 - length) / length < 0.005, (content_type, entry["result"], length)
            assert entry["track"]["points"] == len(locations)


def test_damaged_files_and_gzip_bombs_are_refused_with_a_reason(upload):
    points = points_of(FIXTURES[0])
    damaged = upload(fit_file(points)[:-200], "application/vnd.ant.fit")
    assert damaged.status_code == 422 and "FIT" in damaged.json()["detail"]
    bomb = upload(gzip.compress(b"<gpx>" + b" " * (40 << 20)), "application/gzip")
    assert bomb.status_code == 422 and "unpacked" in bomb.json()["detail"]
    twice = upload(gzip.compress(gzip.compress(tcx_file(points))), "application/gzip")
    assert twice.status_code == 422
