import CampusTestSupport
import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import SharedHelpers
import Storage
import Testing

@testable import CampusServer

#if canImport(FoundationXML)
    import FoundationXML
#endif

extension ListenServerSuites {
    /// The Subsonic API under /rest/ (issue 17) on both databases: who may sign in with what, the
    /// same answer in XML and JSON, Subsonic's error codes in the listener's language, and the
    /// permissions of playlists. The outside client's view is Tests/e2e/test_subsonic.py.
    @Suite(.serialized) struct SubsonicTests {
        struct Credentials {
            var password: String
            var key: String
            var keyID: Int64
        }

        static func credentials(_ server: TestServer, _ token: String) async throws -> Credentials {
            let password = try await server.request(
                .post, "/api/v1/me/app-passwords", json: #"{"name":"DSub"}"#, token: token)
            #expect(password.status == .created, "\(password.text)")
            let key = try await server.request(.post, "/api/v1/me/api-keys", json: #"{"name":"Feishin"}"#, token: token)
            #expect(key.status == .created, "\(key.text)")
            return Credentials(
                password: password.json["password"] as? String ?? "", key: key.json["key"] as? String ?? "",
                keyID: (key.json["id"] as? Int).map(Int64.init) ?? 0)
        }

        /// The `subsonic-response` object of a JSON answer.
        static func answer(_ response: TestResponse) -> [String: Any] {
            response.json["subsonic-response"] as? [String: Any] ?? [:]
        }

        static func errorCode(_ response: TestResponse) -> Int? {
            (answer(response)["error"] as? [String: Any])?["code"] as? Int
        }

        @Test(arguments: TestDatabases.kinds)
        func playersSignInWithAppPasswordsAndKeysOnly(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            try await TestServer.run(location: location) { server in
                try await server.register("ann@example.org")
                try await server.register("ben@example.org")
                let ann = try await server.login("ann@example.org")
                let credentials = try await Self.credentials(server, ann)
                #expect(credentials.password.count == 24)
                // The key, the token of the app password, and the app password itself (plain and enc:).
                let salt = "5a1t"
                let token = Insecure.MD5.hash(data: Data((credentials.password + salt).utf8)).hexadecimal
                let hex = Array(credentials.password.utf8).hexadecimal
                for query in [
                    "apiKey=\(credentials.key)", "u=ann@example.org&t=\(token)&s=\(salt)",
                    "u=ann@example.org&p=\(credentials.password)", "u=ANN@example.org&p=enc:\(hex)",
                ] {
                    let ping = try await server.request(.get, "/rest/ping.view?f=json&\(query)")
                    #expect(Self.answer(ping)["status"] as? String == "ok", "\(query): \(ping.text)")
                }
                // Never the account's password; an unknown key; both ways at once.
                let own = try await server.request(.get, "/rest/ping?f=json&u=ann@example.org&p=correct%20horse")
                #expect(Self.errorCode(own) == 40)
                #expect(Self.errorCode(try await server.request(.get, "/rest/ping?f=json&apiKey=nope")) == 44)
                let both = try await server.request(
                    .get, "/rest/ping?f=json&apiKey=\(credentials.key)&u=ann@example.org")
                #expect(Self.errorCode(both) == 43)
                // Ben has no app password: token sign-in is not for his account.
                let benToken = Insecure.MD5.hash(data: Data(("correct horse" + salt).utf8)).hexadecimal
                let ben = try await server.request(.get, "/rest/ping?f=json&u=ben@example.org&t=\(benToken)&s=\(salt)")
                #expect(Self.errorCode(ben) == 41)
                // A revoked key stops at once; the list never shows a secret.
                let listed = try await server.request(.get, "/api/v1/me/api-keys", token: ann)
                #expect(!listed.text.contains(credentials.key))
                #expect(
                    try await server.request(.delete, "/api/v1/me/api-keys/\(credentials.keyID)", token: ann).status
                        == .noContent)
                #expect(
                    Self.errorCode(try await server.request(.get, "/rest/ping?f=json&apiKey=\(credentials.key)")) == 44)
                // Ben cannot revoke Ann's app password.
                let benSession = try await server.login("ben@example.org")
                let passwords = try await server.request(.get, "/api/v1/me/app-passwords", token: ann)
                let passwordID = ((passwords.json["items"] as? [[String: Any]])?.first?["id"] as? Int) ?? 0
                #expect(
                    try await server.request(.delete, "/api/v1/me/app-passwords/\(passwordID)", token: benSession)
                        .status
                        == .notFound)
            }
        }

        @Test(arguments: TestDatabases.kinds)
        func xmlAndJSONSayTheSameAndRefusalsAreSubsonicErrors(_ kind: Database.Kind) async throws {
            let (location, cleanup) = try await TestDatabases.location(kind)
            defer { Task { await cleanup() } }
            let library = try await TestServer.run(location: location) { server in
                let cast = try await ListenCast.make(server)
                let ann = try await Self.credentials(server, cast.ann)
                let ben = try await Self.credentials(server, cast.ben)
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let json = try await server.request(.get, "/rest/getAlbum?f=json&id=al-\(albumID)&apiKey=\(ann.key)")
                let album = Self.answer(json)["album"] as? [String: Any] ?? [:]
                let songs = (album["song"] as? [[String: Any]] ?? []).compactMap { $0["title"] as? String }
                #expect(songs == ["First", "Second", "Third"])
                #expect(album["songCount"] as? Int == 3)
                let xml = try await server.request(.get, "/rest/getAlbum.view?id=al-\(albumID)&apiKey=\(ann.key)")
                #expect(xml.headers[.contentType]?.hasPrefix("text/xml") == true)
                let document = try XMLDocument(data: Data(buffer: xml.body))
                let titles = try document.nodes(forXPath: "//*[local-name()='song']/@title").compactMap(\.stringValue)
                #expect(titles == songs)
                // A missing parameter, an unknown id, in the listener's language when asked.
                let missing = try await server.request(
                    .get, "/rest/getAlbum?f=json&apiKey=\(ann.key)", headers: [.acceptLanguage: "ru"])
                #expect(Self.errorCode(missing) == 10)
                let message = (Self.answer(missing)["error"] as? [String: Any])?["message"] as? String ?? ""
                #expect(message.contains("id") && !message.contains("Required"), "\(message)")
                let unknown = try await server.request(.get, "/rest/getAlbum?f=json&id=al-999999&apiKey=\(ann.key)")
                #expect(Self.errorCode(unknown) == 70)
                // Ann's playlist is Ann's: Ben is not authorized to read, change or delete it.
                let created = try await server.request(
                    .post, "/rest/createPlaylist?f=json&name=Mine&apiKey=\(ann.key)")
                let playlistID = (Self.answer(created)["playlist"] as? [String: Any])?["id"] as? String ?? ""
                #expect(playlistID.hasPrefix("pl-"))
                for method in ["getPlaylist?id=", "deletePlaylist?id=", "updatePlaylist?name=x&playlistId="] {
                    let refused = try await server.request(
                        .get, "/rest/\(method)\(playlistID)&f=json&apiKey=\(ben.key)")
                    #expect(Self.errorCode(refused) == 50, "\(method)")
                }
                let still = try await server.request(
                    .get, "/rest/getPlaylist?f=json&id=\(playlistID)&apiKey=\(ann.key)")
                #expect((Self.answer(still)["playlist"] as? [String: Any])?["name"] as? String == "Mine")
                return cast.library
            }
            library.remove()
        }
    }
}
