import CampusTestSupport
import HummingbirdTesting
import Testing

@testable import CampusServer

/// ServiceLifecycle keeps each background service's name (`"\(service)"`) for the server's life;
/// a struct's default name dumps every stored property, which for services holding the account or
/// listen service was about a megabyte of an idle server's memory.
@Suite struct ServiceNamesTests {
    @Test func everyBackgroundServiceHasAShortName() async throws {
        let (location, cleanup) = try await TestDatabases.location(.sqlite)
        let app = try await CampusApp.make(
            configuration: TestServer.configuration(location), logger: TestDatabases.logger)
        let services = Mirror(reflecting: app).descendant("services") as? [Any] ?? []
        #expect(services.count >= 7)
        for service in services {
            let name = "\(service)"
            #expect(name.utf8.count < 40, "\(type(of: service)) is named by \(name.utf8.count) bytes")
        }
        try await app.test(.live) { _ in }
        await cleanup()
    }
}
