import CampusHTTP
import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import CampusServer

/// The web side of live tracking: the competition's page offers the tracking panel to a joined
/// participant only, the live map draws each track as an SVG line from the stored positions,
/// and an organizer's form makes a live track the participant's result.
@Suite struct LiveTrackingPagesTests {
    static func page(_ server: TestServer, _ path: String, session: String) async throws -> TestResponse {
        try await server.request(
            .get, path, headers: [.accept: "text/html", .cookie: "\(CookieName.session)=\(session)"])
    }

    @Test func thePanelTheLiveMapAndTheOrganizersConfirmation() async throws {
        try await TestServer.run { server in
            let cast = try await CompeteCast.make(server)
            let id = try await server.createCompetition(cast.owner, name: "Lake loop", metric: "distance")
            #expect(
                try await server.request(.post, "/api/v1/competitions/\(id)/participants/me", token: cast.ann).status
                    == .created)

            // Before any position: the panel for Ann (who joined), not for the organizer.
            let annsPage = try await Self.page(server, "/compete/\(id)", session: cast.ann).text
            #expect(annsPage.contains(#"id="tracking" data-send="/api/v1/competitions/\#(id)/tracking""#))
            #expect(annsPage.contains(#"href="/compete/\#(id)/live""#))
            let ownersPage = try await Self.page(server, "/compete/\(id)", session: cast.owner).text
            #expect(!ownersPage.contains(#"id="tracking""#) && ownersPage.contains(#"href="/compete/\#(id)/live""#))
            #expect(
                try await Self.page(server, "/compete/\(id)/live", session: cast.ben).text.contains(#"id="no-tracks""#))

            let sent = try await server.request(
                .post, "/api/v1/competitions/\(id)/tracking",
                json: CompeteAuthorizationTests.positions(before: server.clock.now), token: cast.ann)
            #expect(sent.status == .ok, "\(sent.text)")

            // The live map: Ann's line with both positions, her row with the distance.
            let live = try await Self.page(server, "/compete/\(id)/live", session: cast.ben)
            #expect(live.status == .ok)
            let group = try #require(live.text.range(of: #"data-user="\#(cast.annID)"><polyline points=""#))
            let points = live.text[group.upperBound...].prefix { $0 != "\"" }.split(separator: " ")
            #expect(points.count == 2)
            #expect(live.text.contains("Ann Runner") && live.text.contains("0.05 km"))
            #expect(live.text.contains("openstreetmap.org/?mlat=53.90040&amp;mlon=27.55970"))

            // The organizer's row: the live track and its form; Ben may not use it.
            let organizer = try await Self.page(server, "/compete/\(id)", session: cast.owner).text
            #expect(organizer.contains("Live track: 0.05 km"))
            let confirm = "/compete/\(id)/participants/\(cast.annID)/tracking/confirm"
            #expect(organizer.contains(#"action="\#(confirm)""#))
            for session in [cast.ben, cast.owner] {
                // The form as the browser sends it: the page's CSRF token and cookie.
                let page = try await Self.page(server, "/compete/\(id)", session: session)
                let csrf = try #require(LanguageTests.csrf(page.text))
                let cookies = page.headers[values: .setCookie].map { $0.split(separator: ";")[0] }
                let answer = try await server.request(
                    .post, confirm, json: "_csrf=\(csrf)",
                    headers: [
                        .contentType: "application/x-www-form-urlencoded", .accept: "text/html",
                        .cookie: (["\(CookieName.session)=\(session)"] + cookies).joined(separator: "; "),
                    ])
                #expect(answer.status == (session == cast.owner ? .seeOther : .forbidden), "\(answer.text)")
            }
            let ranking = try await server.ranking(id, token: cast.owner)
            let ann = try #require(
                ranking.first { ($0["participant"] as? [String: Any])?["id"] as? Int64 == cast.annID })
            #expect(ann["resultText"] as? String == "0.05 km")
        }
    }
}
