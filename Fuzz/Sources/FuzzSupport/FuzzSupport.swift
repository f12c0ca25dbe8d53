import Compete
import Formats
import Foundation
import HTTPInput
import InputRules
import NIOCore
import Timetable

/// What every fuzzer does with its input: each reader below is called exactly as the server, the
/// command line or an import calls it. A reader may refuse the input (it throws); it may not
/// crash, hang or use unbounded memory. The regression tests (Tests/FormatsTests/FuzzRegressionTests,
/// Tests/HTTPInputTests) call the same functions with every crash ever found.
public enum Fuzz {
    public static func iis(_ data: Data) {
        _ = try? IIS.read(data, file: "fuzz.json")
        _ = try? IIS.auditories(data)
        _ = try? IIS.lastUpdate(data)
    }

    public static func oddEven(_ data: Data) {
        _ = OddEvenSchedule.kind(of: data)
        _ = try? OddEvenSchedule.schedule(data, group: "151004", termStart: LocalDate(iso: "2026-02-09"))
        _ = try? OddEvenSchedule.teachers(data)
        _ = try? OddEvenSchedule.group(fromUser: data)
    }

    /// seed 003: the subjects file and the schedule file, split at the first NUL byte.
    public static func kma(_ data: Data) {
        let split = data.firstIndex(of: 0) ?? data.startIndex + data.count / 2
        _ = try? KMASchedule.read(subjects: data[..<split], schedule: data[split...].dropFirst(), minutes: 80)
    }

    /// A recorded track in any format a participant may upload: GPX, TCX, FIT, each perhaps gzipped.
    public static func gpx(_ data: Data) {
        if let track = try? ActivityTrack.read(data) { _ = TrackStatistics(segments: track.segments) }
    }

    public static func rss(_ data: Data) {
        if let feed = try? RSS.read(data) { _ = RSS.write(feed, selfURL: "https://campus.example/rss") }
    }

    public static func audioProbe(_ data: Data) {
        guard let probe = try? AudioProbe(json: data, file: "Podcasts/Show/fuzz.mp3") else { return }
        let audio = ScannedAudio(relativePath: "Podcasts/Show/fuzz.mp3", probe: probe)
        try? audio.checkLimits()
    }

    /// The first 8 bytes are the file's size, the rest the Range header.
    public static func range(_ data: Data) {
        var size: Int64 = 0
        for byte in data.prefix(8) { size = size << 8 | Int64(byte) }
        let header = String(decoding: data.dropFirst(8), as: UTF8.self)
        _ = ByteRangeRequest(header: header, size: abs(size % (1 << 40)))
    }

    /// A form upload: the first line is the Content-Type (and a Content-Disposition), the rest
    /// the body.
    public static func multipart(_ data: Data) {
        let newline = data.firstIndex(of: 0x0A) ?? data.endIndex
        let head = String(decoding: data[..<newline], as: UTF8.self)
        _ = MultipartForm.fileName(contentDisposition: head)
        let body = ByteBuffer(bytes: data[newline...].dropFirst())
        let boundary = MultipartForm.boundary(contentType: head) ?? "X"
        if let form = try? MultipartForm.decode(UploadForm.self, from: body, boundary: boundary) {
            _ = form.file?.count
        }
    }

    struct UploadForm: Decodable {
        var _csrf: String?
        var folder: String?
        var file: Data?
    }

    /// Every date and time reader of queries, forms, imports and feeds.
    public static func dates(_ data: Data) {
        let text = String(decoding: data, as: UTF8.self)
        _ = LocalDate.read(iso: text)
        _ = LocalDate.read(dotted: text)
        if case .success(let local) = LocalDateTime.read(local: text) {
            _ = local.moment(in: TimeZone(identifier: "Europe/Minsk") ?? .gmt)
        }
        if let date = LocalDate(iso: text) {
            _ = StudyCalendar.bsuir.week(of: date)
            _ = Schedule.week(holding: date)
        }
        _ = WallTime(text)
        _ = RFC3339.date(text)
        _ = GPX.time(text)
        _ = RSS.date(text)
        if let date = HTTPDate.date(text) { _ = HTTPDate.text(date) }
        _ = URLEncodedForm.problem(in: text)
        _ = TextRules.problem(in: text, limit: 100)
    }
}
