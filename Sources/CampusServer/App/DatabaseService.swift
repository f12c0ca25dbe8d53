import Foundation
import HTTPInput
import Hummingbird
import InputRules
import Logging
import Metrics
import Mustache
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OpenAPIRuntime
import Prometheus
import ServiceLifecycle
import Storage
import Timetable

/// Closes the database when the server stops (after the HTTP server, which stops first).
struct DatabaseService: NamedService {
    let database: Database

    func run() async throws {
        try? await gracefulShutdown()
        await database.close()
    }
}
