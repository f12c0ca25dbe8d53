import Testing

@testable import CampusServer

/// The Subsonic methods are one table: a method two groups answer (or one group twice) stops the
/// start, naming both, rather than one answer being silently lost (every server the tests start
/// builds Campus's own table, so a duplicate there fails them all).
@Suite struct SubsonicMethodsTests {
    let ping: SubsonicRoutes.Handler = { _ in .empty }

    @Test func aMethodAnsweredTwiceStopsTheStart() throws {
        #expect(throws: SubsonicMethods.Duplicate.self) {
            try SubsonicMethods([("system", ["ping": ping]), ("media", ["stream": ping, "ping": ping])])
        }
        do {
            _ = try SubsonicMethods([("system", ["ping": ping, "ping": ping])])
            Issue.record("a group answering ping twice was taken")
        } catch let duplicate as SubsonicMethods.Duplicate {
            #expect(duplicate.method == "ping" && duplicate.groups == ["system", "system"])
            #expect(duplicate.description.contains("ping"))
        }
        let table = try SubsonicMethods([("system", ["ping": ping]), ("media", ["stream": ping])])
        #expect(table.names == ["ping", "stream"] && table["stream"] != nil && table["getAlbum"] == nil)
    }
}
