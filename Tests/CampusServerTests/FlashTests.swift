import CampusHTTP
import CampusTestSupport
import Foundation
import HTTPTypes
import SharedHelpers
import Testing

@testable import CampusServer

/// A flash message travels in a cookie, which browsers keep only up to 4,096 bytes: whatever a
/// message says, its cookie fits, and the notes import says a few of the keys it did not place.
@Suite struct FlashTests {
    static func decoded(_ value: String) -> Flash? {
        Data(base64URLEncoded: value, maximumLength: Flash.cookieValueLimit).flatMap {
            try? JSONDecoder().decode(Flash.self, from: $0)
        }
    }

    @Test func aFlashOfAnyLengthFitsInItsCookie() throws {
        let short = Flash(kind: .success, message: "Your profile is saved.")
        #expect(Self.decoded(short.cookieValue)?.message == short.message)
        for message in [
            String(repeating: "ключ, ", count: 200_000), String(repeating: "\"\\", count: 5000),
            String(repeating: "🎵", count: 3000), String(repeating: "\u{1}", count: 4000),
            String(repeating: "a", count: 2300),
        ] {
            let value = Flash(kind: .error, message: message).cookieValue
            #expect(value.utf8.count <= Flash.cookieValueLimit)
            let kept = try #require(Self.decoded(value))
            #expect(kept.kind == .error && kept.message.hasSuffix("…"))
            #expect(message.hasPrefix(kept.message.dropLast()) && kept.message.count > 100)
        }
    }

    @Test func theNotesImportSaysAFewOfTheKeysItDidNotPlace() async throws {
        try await TestServer.run { server in
            let (ann, _) = try await MyTimetableTests.cast(server)
            var visit = WebVisit(server, token: ann)
            _ = try await visit.get("/timetable/mine")
            // Twenty keys of 40,000 characters each, which no slot has.
            var notes: [String: String] = [:]
            for number in 0..<20 { notes["key\(number)-" + String(repeating: "x", count: 40_000)] = "text" }
            let imported = try await visit.upload("/timetable/mine/notes/import", file: try JSONEncoder().encode(notes))
            #expect(imported.status == .seeOther, "\(imported.status)")
            let cookies = imported.headers[values: .setCookie]
            #expect(!cookies.isEmpty && cookies.allSatisfy { $0.utf8.count < 4096 }, "\(cookies.map(\.utf8.count))")
            let flash = try #require(visit.cookie(PageRenderer.flashCookie).flatMap(Self.decoded))
            #expect(flash.message.contains("20 slots have no single lesson of yours"), "\(flash.message)")
            #expect(flash.message.utf8.count < 400, "\(flash.message)")
            let page = try await visit.get("/timetable/mine")
            let firstKey = "key0-" + String(repeating: "x", count: MyNotesPages.keyLength - 6) + "…"
            #expect(page.text.contains("20 slots have no single lesson of yours: \(firstKey), key1-"), "\(page.text)")
        }
    }
}
