import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import CampusServer

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// What a Subsonic answer holds whatever the request held (issue 35): XML that parsers read
/// (errors echoed `%01` as it was), times within the dates Campus works with (a scrobble at
/// `-9223372036854775808` was stored as 4713 BC), positions within the API's, and download names
/// as RFC 6266 and 8187 write them.
@Suite struct SubsonicAnswerTests {
    typealias Subsonic = ListenServerSuites.SubsonicTests

    /// What XMLParser reads of an answer: the error's attributes, and every parse error.
    final class Reading: NSObject, XMLParserDelegate {
        var error: [String: String] = [:]
        var problems: [String] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if elementName == "error" { error = attributes }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            problems.append((parseError as NSError).localizedDescription)
        }
    }

    static func read(_ response: TestResponse) -> Reading {
        let reading = Reading()
        let parser = XMLParser(data: Data(buffer: response.body))
        parser.delegate = reading
        if !parser.parse() || parser.parserError != nil { reading.problems.append("parse() failed") }
        return reading
    }

    @Test func xmlAnswersAreWellFormedWhateverTheRequestHolds() async throws {
        try await TestServer.run { server in
            try await server.register("ann@example.org")
            let key = try await Subsonic.credentials(server, try await server.login("ann@example.org")).key
            // Each echoes the parameter in its message: controls, U+FFFE, a carriage return, ESC.
            let cases: [(query: String, echoed: String)] = [
                ("getArtist?id=ar-1%01", "ar-1"), ("getSong?id=tr-%0B1", "tr-1"),
                ("getAlbumList2?type=x%01y", "xy"), ("getAlbum?id=al-%EF%BF%BE2", "al-2"),
                ("getAlbumList2?type=new%0Dest", "new\rest"), ("getSong?id=%1B%5B31mtr-1", "[31mtr-1"),
                ("getAlbumList2?type=%EF%BF%BF%C2%85", "\u{85}"), ("getCoverArt?id=x%00y", "xy"),
            ]
            for (query, echoed) in cases {
                let response = try await server.request(.get, "/rest/\(query)&apiKey=\(key)")
                #expect(response.status == .ok)
                let reading = Self.read(response)
                #expect(reading.problems.isEmpty, "\(query): \(reading.problems) in \(response.text)")
                #expect(reading.error["message"]?.contains(echoed) == true, "\(query): \(reading.error)")
            }
            // Posted as a form, the same.
            let posted = try await server.http.execute(
                uri: "/rest/getArtist?apiKey=\(key)", method: .post,
                headers: [.contentType: "application/x-www-form-urlencoded"], body: ByteBuffer(string: "id=ar-%07%081"))
            #expect(Self.read(posted).problems.isEmpty, "\(posted.text)")
        }
    }
}

extension ListenServerSuites {
    /// Numbers and names in Subsonic answers, with a library (issue 35).
    @Suite(.serialized) struct SubsonicNumbersTests {
        typealias Subsonic = ListenServerSuites.SubsonicTests

        @Test func timesPositionsAndDownloadNamesStayWithinTheirRules() async throws {
            let library = try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                let key = try await Subsonic.credentials(server, cast.ann).key
                func call(_ query: String) async throws -> TestResponse {
                    try await server.request(.get, "/rest/\(query)&f=json&apiKey=\(key)")
                }
                let found = try await call("search3?query=Chapter")
                let result = Subsonic.answer(found)["searchResult3"] as? [String: Any]
                let songs = result?["song"] as? [[String: Any]] ?? []
                let song = songs.first { ($0["title"] as? String) == "Chapter 1" }
                let chapter = try #require(song?["id"] as? String, "\(found.text)")

                // Scrobbles outside 1900-01-01 to 2200-12-31, or no number, are refused; none is kept.
                for time in ["-9223372036854775808", "-2209075200000", "7289697600000", "99999999999999999", "soon"] {
                    let refused = try await call("scrobble?id=\(chapter)&time=\(time)")
                    #expect(Subsonic.errorCode(refused) == 0, "\(time): \(refused.text)")
                }
                #expect(server.jsonArray(try await server.request(.get, "/api/v1/history", token: cast.ann)).isEmpty)
                let kept = try await call("scrobble?id=\(chapter)&time=1700000000000")
                #expect(Subsonic.answer(kept)["status"] as? String == "ok", "\(kept.text)")
                let history = server.jsonArray(try await server.request(.get, "/api/v1/history", token: cast.ann))
                #expect((history.first?["at"] as? String)?.hasPrefix("2023-11-14T22:13:20") == true, "\(history)")

                // Positions are kept within the API's: 0 to 1,000,000 seconds.
                _ = try await call("createBookmark?id=\(chapter)&position=99999999999999999")
                let bookmarks = Subsonic.answer(try await call("getBookmarks?x=1"))["bookmarks"] as? [String: Any]
                let bookmark = (bookmarks?["bookmark"] as? [[String: Any]])?.first
                #expect(bookmark?["position"] as? Int == 1_000_000_000, "\(String(describing: bookmark))")
                _ = try await call("savePlayQueue?id=\(chapter)&current=\(chapter)&position=99999999999999999")
                let queue = Subsonic.answer(try await call("getPlayQueue?x=1"))["playQueue"] as? [String: Any]
                #expect(queue?["position"] as? Int == 1_000_000_000, "\(String(describing: queue))")
                _ = try await call("savePlayQueue?id=\(chapter)&current=\(chapter)&position=-5")
                let player = try await server.request(.get, "/api/v1/player", token: cast.ann)
                #expect(player.json["position"] as? Double == 0, "\(player.text)")

                // A download's name: RFC 8187's filename* (spaces encoded), and a quoted ASCII one.
                let download = try await server.request(.get, "/rest/download?id=\(chapter)&apiKey=\(key)")
                #expect(download.status == .ok)
                #expect(
                    download.headers[.contentDisposition]
                        == #"attachment; filename="01 - Chapter 1.m4a"; filename*=UTF-8''01%20-%20Chapter%201.m4a"#)
                return cast.library
            }
            library.remove()
        }
    }
}
