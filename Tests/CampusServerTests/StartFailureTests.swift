import CampusTestSupport
import Foundation
import Hummingbird
import NIOCore
import Storage
import Testing

@testable import CampusServer

/// A start that fails after the database is open (issue 35, item 28): the port is taken. The
/// server's services are cancelled while they use the database; it must be closed once they are
/// done (a debug build trapped: "SQLiteConnection was not closed before deinitializing"), and
/// the error is the address in use, which `campus serve` says in one line.
@Suite struct StartFailureTests {
    @Test(arguments: TestDatabases.kinds)
    func aPortInUseEndsTheStartWithTheDatabaseClosed(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }
        try await TestServer.run(location: location) { server in
            var configuration = TestServer.configuration(location)
            configuration.port = server.port
            let second = try await CampusApp.make(configuration: configuration, logger: TestDatabases.logger)
            let error = await #expect(throws: IOError.self) { try await second.runService() }
            #expect(error?.errnoCode == EADDRINUSE)
            // The first server still answers from the same database.
            try await server.register("ann@example.org")
            #expect(try await server.request(.get, "/ready").status == .ok)
        }
    }
}
