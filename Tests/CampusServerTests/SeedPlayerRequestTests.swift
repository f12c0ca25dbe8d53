import CampusTestSupport
import Foundation
import HTTPTypes
import HummingbirdTesting
import Storage
import Testing

@testable import CampusServer

extension ListenServerSuites {
    /// Seed 001's own player request (its Listing 9: `context_id`, `shuffle` and `repeat_type`
    /// with `play`, `recommended_playlist`) works as a client written for the seed's server sends
    /// it, beside Campus's own names, with the same meaning (issue 35: it was a 422 with the
    /// decoder's words).
    @Suite(.serialized) struct SeedPlayerRequestTests {
        @Test func listingNineOfSeed001Plays() async throws {
            try await TestServer.run { server in
                let cast = try await ListenCast.make(server)
                defer { cast.library.remove() }
                let albumID = try await server.find("suite", kind: "album", token: cast.ann)
                let tracks = try await server.tracks(ofAlbum: albumID, token: cast.ann)
                let album = try await server.request(.get, "/api/v1/albums/\(albumID)", token: cast.ann)
                let authorID = try #require(((album.json["author"] as? [String: Any])?["id"] as? NSNumber)?.int64Value)
                // Ann likes the album's author: the recommended playlist holds its tracks.
                let liked = try await server.request(
                    .put, "/api/v1/marks/author:\(authorID)", json: #"{"mark":"like"}"#, token: cast.ann)
                #expect(liked.status == .noContent)

                // Listing 9 as the seed writes it, with an item of this server by its id alone.
                let listing = try await server.player(
                    cast.ann,
                    #"""
                    {
                      "action": "play",
                      "payload": {
                        "context_id": "recommended_playlist",
                        "ids": ["\#(tracks[1])"],
                        "shuffle": "enable",
                        "repeat_type": "disabled"
                      }
                    }
                    """#)
                #expect(listing.status == .ok, "\(listing.text)")
                #expect(Set(listing.queueIDs) == Set(tracks))
                #expect(listing.currentID == tracks[1])
                #expect(listing.json["shuffle"] as? Bool == true)
                #expect(listing.json["repeat"] as? String == "disabled")
                #expect(listing.json["contextId"] as? String == "recommended")
                #expect(listing.json["playing"] as? Bool == true)

                // The modes come with play, in Campus's names too; without them the player keeps its own.
                let campus = try await server.player(
                    cast.ann,
                    #"""
                    {"action":"play","payload":{"ids":["track:\#(tracks[2])"],"contextId":"album:\#(albumID)",
                     "shuffle":"disable","repeat_type":"all"}}
                    """#)
                #expect(campus.status == .ok, "\(campus.text)")
                #expect(campus.queueIDs == tracks, "shuffle off: the album's order")
                #expect(campus.currentID == tracks[2])
                #expect(campus.json["repeat"] as? String == "all")
                let kept = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"context_id":"album:\#(albumID)"}}"#)
                #expect(kept.status == .ok, "\(kept.text)")
                #expect(kept.json["repeat"] as? String == "all")
                #expect(kept.json["shuffle"] as? Bool == false)
                #expect(kept.currentID == tracks[0])
                let repeatOne = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"ids":["\#(tracks[0])"],"repeat_type":"one"}}"#)
                #expect(repeatOne.queueIDs == [tracks[0]])
                #expect(repeatOne.json["repeat"] as? String == "one")
                // Both names of the context at once: the same one is fine, two different ones are not.
                let same = try await server.player(
                    cast.ann,
                    #"{"action":"play","payload":{"contextId":"album:\#(albumID)","context_id":"album:\#(albumID)"}}"#)
                #expect(same.status == .ok, "\(same.text)")
                let two = try await server.player(
                    cast.ann,
                    #"{"action":"play","payload":{"contextId":"album:\#(albumID)","context_id":"recently_played"}}"#)
                #expect(two.status == .unprocessableContent)
                #expect(Self.fields(two) == ["payload.context_id"])

                // What is refused is refused in words that name the field, never the decoder's.
                let refusals: [(body: String, field: String)] = [
                    (#"{"action":"play","payload":{"context_id":"12"}}"#, "payload.context_id"),
                    (#"{"action":"play","payload":{"ids":["3fa85f64-5717-4562-b3fc-2c963f66afa6"]}}"#, "payload.ids"),
                    (#"{"action":"play","payload":{"ids":["\#(tracks[0])"],"shuffle":"sideways"}}"#, "payload.shuffle"),
                    (
                        #"{"action":"play","payload":{"ids":["\#(tracks[0])"],"repeat_type":"forever"}}"#,
                        "payload.repeat_type"
                    ),
                    (
                        #"{"action":"play","payload":{"ids":["\#(tracks[0])"],"contextID":"album:1"}}"#,
                        "payload.contextID"
                    ),
                    (#"{"action":"play","payload":{"ids":["\#(tracks[0])"]},"extra":1}"#, "extra"),
                    (#"{"action":"play","payload":{"ids":["\#(tracks[0])"],"\u0007x":1}}"#, "payload.\u{FFFD}x"),
                ]
                for refusal in refusals {
                    let answer = try await server.player(cast.ann, refusal.body)
                    #expect(answer.status == .unprocessableContent, "\(refusal.body)")
                    #expect(Self.fields(answer) == [refusal.field], "\(refusal.body): \(answer.text)")
                    #expect(!answer.text.contains("nexpected"), "\(answer.text)")
                    #expect(!answer.text.contains("CodingKeys"), "\(answer.text)")
                }
                let unknown = try await server.player(
                    cast.ann, #"{"action":"play","payload":{"ids":["\#(tracks[0])"],"contextID":"album:1"}}"#)
                let detail = unknown.json["detail"] as? String ?? ""
                #expect(detail.contains("payload.contextID is not a field of this request"), "\(detail)")
                #expect(detail.contains("contextId, context_id"), "\(detail)")
                // So is a field no closed object of the document names, whatever the operation.
                let playlist = try await server.request(
                    .post, "/api/v1/playlists", json: #"{"name":"Evening","kind":"track","colour":"red"}"#,
                    token: cast.ann)
                #expect(playlist.status == .unprocessableContent)
                #expect(Self.fields(playlist) == ["colour"])
                let said = playlist.json["detail"] as? String ?? ""
                #expect(said == "colour is not a field of this request; it takes kind, name.", "\(said)")
            }
        }

        static func fields(_ response: TestResponse) -> [String] {
            (response.json["errors"] as? [[String: Any]] ?? []).compactMap { $0["field"] as? String }
        }
    }
}
