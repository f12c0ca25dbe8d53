import AsyncHTTPClient
import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import NIOCore
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime
import Storage

@testable import CampusServer

/// A clock that tests move by hand.
final class TestClock: Sendable {
    private let value: NIOLockedValueBox<Date>
    init(_ start: Date = Date(timeIntervalSince1970: 1_800_000_000)) { value = .init(start) }
    var now: Date { value.withLockedValue { $0 } }
    func advance(by seconds: TimeInterval) { value.withLockedValue { $0 = $0.addingTimeInterval(seconds) } }
}

/// Mail that tests can read instead of a mailbox.
final class CapturedMail: MailSender {
    struct Message: Sendable {
        var to: String
        var subject: String
        var body: String
    }
    private let messages = NIOLockedValueBox<[Message]>([])

    func send(_ mail: MailMessage) async throws {
        messages.withLockedValue { $0.append(Message(to: mail.to, subject: mail.subject, body: mail.body)) }
    }

    var all: [Message] { messages.withLockedValue { $0 } }

    /// Waits for the `count`-th message (delivery runs in the background).
    func waitFor(count: Int) async throws -> Message {
        for _ in 0..<200 {
            if let message = messages.withLockedValue({ $0.count >= count ? $0[count - 1] : nil }) { return message }
            try await Task.sleep(for: .milliseconds(10))
        }
        throw CancellationError()
    }
}

/// Adds `Authorization: Bearer <token>` to every request of a generated client.
struct BearerToken: ClientMiddleware {
    let token: String
    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(token)"
        return try await next(request, body, baseURL)
    }
}

/// A Campus server running on a free port of 127.0.0.1, with a fresh database.
struct TestServer: Sendable {
    let port: Int
    let http: any TestClientProtocol
    let clock: TestClock
    let mail: CapturedMail
    let databaseLocation: DatabaseLocation
    /// The server's media directory: uploads, covers, recordings (its data directory, or with
    /// PostgreSQL the database's: every server of one database shares it, as instances must).
    let dataDirectory: String

    var baseURL: URL { URL(string: "http://localhost:\(port)")! }

    /// An HTTP client that takes gzip as any browser does: AsyncHTTPClient's shared client
    /// refuses an answer that decompresses to more than 25 times its size, which a term's
    /// schedule does (README).
    static let client = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: .init(decompression: .enabled(limit: .ratio(1000))))

    /// The generated client, optionally signed in with a bearer token.
    func api(token: String? = nil) -> Client {
        Client(
            serverURL: baseURL, transport: AsyncHTTPClientTransport(configuration: .init(client: Self.client)),
            middlewares: token.map { [BearerToken(token: $0)] } ?? [])
    }

    static func configuration(_ location: DatabaseLocation) -> ServerConfiguration {
        var configuration = ServerConfiguration(database: location)
        configuration.bcryptCost = 4
        configuration.host = "localhost"
        configuration.port = 0
        // The whole suite runs at once on two cores: a test may wait its turn for over the default
        // minute between two requests on its connection, which the server would then close ("I/O
        // on closed channel"). The idle timeout itself is tested end to end (test_hardening.py).
        configuration.limits.idleTimeout = .seconds(600)
        // Each server its own data directory, as each has its own database: files a test leaves
        // (uploads, covers) never reach another test's catalogue.
        configuration.dataDirectory =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("campus-test-\(UUID().uuidString)").path
        if case .postgres = location {
            configuration.mediaDirectory = mediaDirectory(location)
        }
        return configuration
    }

    /// The media directory every server of a PostgreSQL database shares in the tests.
    static func mediaDirectory(_ location: DatabaseLocation) -> String {
        let name = String(String(describing: location).unicodeScalars.filter(CharacterSet.alphanumerics.contains))
        return FileManager.default.temporaryDirectory.appendingPathComponent("campus-media-\(name.suffix(60))").path
    }

    /// Runs `body` against a new server; the database is removed afterwards.
    static func run<T: Sendable>(
        _ kind: Database.Kind = .sqlite, clock: TestClock = TestClock(),
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { try? FileManager.default.removeItem(atPath: mediaDirectory(location)) }
        do {
            let value = try await run(location: location, clock: clock, configure: configure, body)
            await cleanup()
            return value
        } catch {
            await cleanup()
            throw error
        }
    }

    /// Runs `body` against a new server on an existing database.
    static func run<T: Sendable>(
        location: DatabaseLocation, clock: TestClock = TestClock(), logger: Logger = TestDatabases.logger,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TestServer) async throws -> T
    ) async throws -> T {
        var configuration = configuration(location)
        let ownDirectory = configuration.dataDirectory
        defer { try? FileManager.default.removeItem(atPath: ownDirectory) }
        configure(&configuration)
        let mail = CapturedMail()
        let app = try await CampusApp.make(
            configuration: configuration, logger: logger, mailSender: mail, now: { clock.now })
        return try await app.test(.live) { [dataDirectory = configuration.resolvedMediaDirectory] client in
            try await body(
                TestServer(
                    port: client.port!, http: client, clock: clock, mail: mail, databaseLocation: location,
                    dataDirectory: dataDirectory))
        }
    }

    // MARK: Raw HTTP

    func request(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, token: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> TestResponse {
        var headers = extra
        if json != nil, headers[.contentType] == nil { headers[.contentType] = "application/json" }
        if let token { headers[.authorization] = "Bearer \(token)" }
        return try await http.execute(
            uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    // MARK: Accounts

    @discardableResult
    func register(
        _ email: String, password: String = "correct horse", firstName: String = "Ann", lastName: String = "Lee",
        organizer: Bool = false
    ) async throws -> Components.Schemas.User {
        try await api().register(
            body: .json(
                .init(email: email, password: password, firstName: firstName, lastName: lastName, organizer: organizer))
        ).created.body.json
    }

    func login(_ email: String, password: String = "correct horse") async throws -> String {
        try await api().login(body: .json(.init(email: email, password: password))).ok.body.json.token
    }

    /// Makes an account an admin directly in the database (as `campus user create --admin` does).
    func makeAdmin(_ email: String) async throws {
        let database = try await Database.open(databaseLocation, logger: TestDatabases.logger)
        let administration = Administration(
            database: database, configuration: TestServer.configuration(databaseLocation), logger: TestDatabases.logger)
        _ = try await administration.setRole(email: email, role: .admin)
        await database.close()
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }

    /// The body as a JSON object.
    var json: [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any]) ?? [:]
    }
}
