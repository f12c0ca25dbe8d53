import Foundation
import NIOCore
import Testing

@testable import HTTPInput

@Suite struct HTTPInputTests {
    @Test(arguments: [
        ("bytes=0-99", ByteRangeRequest.part(0...99)), ("bytes=100-", .part(100...999)),
        ("bytes=-100", .part(900...999)), ("bytes=990-2000", .part(990...999)), ("bytes=1000-", .unsatisfiable),
        ("bytes=-0", .unsatisfiable), ("bytes=5-1", .whole), ("bytes=0-1,5-6", .whole), ("items=0-1", .whole),
        ("bytes=a-b", .whole), ("bytes=٣-٤", .whole), ("  BYTES=0-99 ", .part(0...99)), ("bytes= 5-9", .part(5...9)),
        ("bytes=99999999999999999999-", .whole), ("bytes=-", .whole),
    ])
    func rangeHeaders(_ header: String, _ expected: ByteRangeRequest) {
        #expect(ByteRangeRequest(header: header, size: 1000) == expected)
    }

    @Test func rangesOfAnEmptyFile() {
        #expect(ByteRangeRequest(header: "bytes=-5", size: 0) == .unsatisfiable)
        #expect(ByteRangeRequest(header: "bytes=0-", size: 0) == .unsatisfiable)
        #expect(ByteRangeRequest(header: nil, size: 0) == .whole)
    }

    @Test func rfc3339DatesInTheSupportedYears() {
        #expect(RFC3339.date("2026-11-22T09:00:00Z") == Date(timeIntervalSince1970: 1_795_338_000))
        #expect(RFC3339.date("2026-11-22T12:00:00.5+03:00")?.timeIntervalSince1970 == 1_795_338_000.5)
        #expect(RFC3339.date("0001-01-01T00:00:00Z") == nil)
        #expect(RFC3339.date("9999-12-31T23:59:59Z") == nil)
        #expect(RFC3339.date("2026-11-22") == nil)
        #expect(RFC3339.date(String(repeating: "9", count: 100)) == nil)
        // All of the text is the date: Foundation's parser alone would read these.
        for text in [
            "2026-11-22T09:00:00Z*", "2026-11-22T09:00:00Zabc", "2026-11-22T09:00:00+03:00x", "2026-11-22T09:00:00",
        ] {
            #expect(RFC3339.date(text) == nil, "\(text)")
        }
        #expect(RFC3339.date("2026-11-22t09:00:00z") == Date(timeIntervalSince1970: 1_795_338_000))
        // Parts out of their ranges are not rolled over into a date (schemathesis sent 12:99).
        for text in [
            "2024-01-01T12:99:00Z", "2024-01-01T24:00:00Z", "2024-01-01T12:00:61Z", "2024-13-01T12:00:00Z",
            "2024-00-10T12:00:00Z", "2023-02-29T12:00:00Z", "2024-04-31T12:00:00Z", "2024-01-01T12:00:00+24:00",
            "2024-01-01T12:00:00+03:60",
        ] {
            #expect(RFC3339.date(text) == nil, "\(text)")
        }
        #expect(RFC3339.date("2024-02-29T12:00:00Z") != nil)
        #expect(RFC3339.date("2024-12-31T23:59:59+14:00") != nil)
    }

    /// A date-time is read as the day it is where the institution is: one outside 1900–2200 there
    /// is a date out of range, told apart from a text that is no date-time at all.
    @Test func rfc3339DatesAreDaysOfTheInstitution() {
        let minsk = TimeZone(identifier: "Europe/Minsk")!
        #expect(RFC3339.read("2200-12-31T23:59:59-14:00", in: minsk) == .failure(.outOfRange))
        #expect(RFC3339.read("1900-01-01T00:00:00+14:00", in: minsk) == .failure(.outOfRange))
        #expect(RFC3339.read("2201-01-01T00:00:00Z", in: minsk) == .failure(.outOfRange))
        #expect(RFC3339.read("0001-01-01T00:00:00Z", in: minsk) == .failure(.outOfRange))
        #expect(RFC3339.read("2026-11-22T09:00:00", in: minsk) == .failure(.malformed))
        #expect(RFC3339.read("2026-02-30T09:00:00Z", in: minsk) == .failure(.malformed))
        #expect(RFC3339.read("2200-12-31T20:59:59Z", in: minsk) == .success(Date(timeIntervalSince1970: 7_289_643_599)))
        #expect(RFC3339.date("2200-12-31T21:00:00Z", in: minsk) == nil)
        #expect(RFC3339.date("2200-12-31T21:00:00Z", in: .gmt) != nil)
    }

    @Test func multipartBoundaries() {
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(MultipartForm.boundary(contentType: #"Multipart/Form-Data; charset=utf-8; Boundary="a b""#) == "a b")
        #expect(MultipartForm.boundary(contentType: "multipart/form-data") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=") == nil)
        #expect(
            MultipartForm.boundary(contentType: "multipart/form-data; boundary=\(String(repeating: "x", count: 71))")
                == nil)
        #expect(MultipartForm.boundary(contentType: "application/json; boundary=abc") == nil)
        #expect(MultipartForm.boundary(contentType: "multipart/form-data; boundary=a\u{0}b") == nil)
    }

    @Test func multipartFormsAndFileNames() throws {
        struct Form: Decodable {
            var title: String?
            var file: Data?
        }
        let body =
            "--X\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nMorning\r\n--X\r\n"
            + "Content-Disposition: form-data; name=\"file\"; filename=\"a.gpx\"\r\n\r\n<gpx/>\r\n--X--\r\n"
        let form = try MultipartForm.decode(Form.self, from: ByteBuffer(string: body), boundary: "X")
        #expect(form.title == "Morning" && form.file == Data("<gpx/>".utf8))
        struct Titled: Decodable { var title: String }
        #expect(throws: MultipartForm.Unreadable.self) {
            try MultipartForm.decode(Titled.self, from: ByteBuffer(string: "garbage"), boundary: "X")
        }
        #expect(
            MultipartForm.fileName(contentDisposition: #"form-data; name="f"; filename="C:\dir\..\Lecture 1.mp3""#)
                != nil)
        #expect(
            MultipartForm.fileName(contentDisposition: #"form-data; name="f"; filename="../../etc/passwd""#) == "passwd"
        )
        #expect(MultipartForm.fileName(contentDisposition: #"form-data; name="f""#) == nil)
    }

    @Test func urlEncodedFormsWithoutControlCharacters() {
        #expect(URLEncodedForm.problem(in: "name=Ann+Lee&body=Two%0D%0Alines%09tab") == nil)
        #expect(URLEncodedForm.problem(in: "name=a%00b")?.field == "name")
        #expect(
            URLEncodedForm.problem(in: "name=a%E2%80%AEb")?.detail
                == "name contains a control character (U+202E), which is not allowed.")
        #expect(URLEncodedForm.problem(in: "name=%FF")?.detail == "name is not percent-encoded UTF-8.")
    }

    /// Icecast's `/admin/metadata` query: decoded once, to bytes (a title may not be UTF-8).
    @Test func urlEncodedFieldsAsBytesAreDecodedOnce() {
        let fields = URLEncodedForm.byteFields(
            in: "mount=%2Fradio%2Fcampus&song=C%2B%2B+100%2525&x&latin=Caf%E9&odd=50%+%zz%4")
        #expect(fields.map { $0.name } == ["mount", "song", "x", "latin", "odd"])
        #expect(fields[0].value == Array("/radio/campus".utf8))
        // `%2B` is a plus, `+` a space, `%2525` stays `%25` (the old reader decoded twice: `%`).
        #expect(fields[1].value == Array("C++ 100%25".utf8))
        #expect(fields[2].value.isEmpty)
        #expect(fields[3].value == Array("Caf".utf8) + [0xE9])
        // A `%` without two hexadecimal digits is kept, as Icecast keeps it.
        #expect(fields[4].value == Array("50% %zz%4".utf8))
        #expect(URLEncodedForm.byteFields(in: "song=A%00B").first?.value == [0x41, 0x00, 0x42])
    }

    /// MultipartKit 4.7 traps on a header name byte above 127 (Fuzz/FuzzMultipart found it); the
    /// form is refused before MultipartKit sees it.
    @Test func nonASCIIHeaderNamesAreRefusedBeforeMultipartKitSeesThem() throws {
        struct Form: Decodable { var file: Data? }
        let body = ByteBuffer(
            bytes: Array("--X\r\nContent-Disposition: form-data; name=\"file\"\r\n".utf8) + [0xFF, 0x3A, 0x20]
                + Array("x\r\n\r\ndata\r\n--X--\r\n".utf8))
        #expect(throws: MultipartForm.Unreadable.self) {
            try MultipartForm.decode(Form.self, from: body, boundary: "X")
        }
        let kept = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/FuzzMultipart")
        for name in (try? FileManager.default.contentsOfDirectory(atPath: kept.path)) ?? [] {
            let data = try Data(contentsOf: kept.appendingPathComponent(name))
            let newline = data.firstIndex(of: 0x0A) ?? data.endIndex
            let buffer = ByteBuffer(bytes: data[newline...].dropFirst())
            let boundary = MultipartForm.boundary(contentType: String(decoding: data[..<newline], as: UTF8.self)) ?? "X"
            _ = try? MultipartForm.decode(Form.self, from: buffer, boundary: boundary)
        }
        // Header values may be UTF-8 (file names in Cyrillic).
        let cyrillic = ByteBuffer(
            string:
                "--X\r\nContent-Disposition: form-data; name=\"file\"; filename=\"Лекция.mp3\"\r\n\r\nID3\r\n--X--\r\n")
        #expect(try MultipartForm.decode(Form.self, from: cyrillic, boundary: "X").file == Data("ID3".utf8))
    }
}

@Suite struct HTTPDateTests {
    @Test func imfFixdatesBothWays() {
        let date = Date(timeIntervalSince1970: 784_111_777)
        #expect(HTTPDate.text(date) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(HTTPDate.date("Sun, 06 Nov 1994 08:49:37 GMT") == date)
        #expect(HTTPDate.text(Date(timeIntervalSince1970: 1_795_338_000)) == "Sun, 22 Nov 2026 09:00:00 GMT")
        for bad in [
            "Sun, 31 Feb 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994",
            "Sun, 06 Nov 1994 08:49:37 UTC", "Sun, 06 Nov 1994 25:49:37 GMT", "2\u{310}\u{FFFD}\u{FFFD}0-22", "",
        ] {
            #expect(HTTPDate.date(bad) == nil, "\(bad)")
        }
    }

    /// Foundation's DateFormatter trapped on this (Fuzz/FuzzDates); no date reader may.
    @Test func theDateThatStoppedDateFormatter() throws {
        let kept = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions/FuzzDates")
        for name in try FileManager.default.contentsOfDirectory(atPath: kept.path) {
            let text = String(decoding: try Data(contentsOf: kept.appendingPathComponent(name)), as: UTF8.self)
            #expect(HTTPDate.date(text) == nil)
            #expect(RFC3339.date(text) == nil)
        }
    }
}
