import Accounts
import Foundation
import Logging
import Prometheus
import Storage

/// How a Campus server is set up: flags, environment variables and their defaults.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    public var dataDirectory: String = "./campus-data"
    public var database: DatabaseLocation
    /// The address users reach the server by, for links in mail; defaults to http://host:port.
    public var baseURL: String?
    /// The institution's time zone: lesson times are wall-clock times there.
    public var timeZone: TimeZone = TimeZone(identifier: "Europe/Minsk") ?? .gmt
    /// bcrypt's cost factor; each step doubles the work of checking a password.
    public var bcryptCost: UInt8 = 12
    /// Take the client address from `X-Forwarded-For` (only behind a reverse proxy you run).
    public var trustForwardedFor = false
    public var loginThrottle = LoginThrottle()
    /// Load the demo institution and accounts on start.
    public var demo = false
    /// How often mail is retried and expired sessions are removed.
    public var housekeepingInterval: Duration = .seconds(60)
    /// An IIS-compatible server to sync the timetable from, if any.
    public var iisURL: URL?
    public var iisSyncInterval: Duration = .seconds(6 * 3600)
    /// A folder of audio files scanned into the catalogue before the server starts serving.
    public var libraryFolder: String?
    /// Fetching podcast feeds and covers: from private addresses too, and the deadline.
    public var outbound = OutboundSettings()
    /// How the server guards its connections and its ffmpeg processes.
    public var limits = ConnectionLimits()

    public init(database: DatabaseLocation) { self.database = database }

    /// The base URL without a trailing slash.
    public var resolvedBaseURL: String {
        var url = baseURL ?? "http://\(host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host):\(port)"
        while url.hasSuffix("/") { url.removeLast() }
        return url
    }

    /// Whether cookies must carry the Secure attribute (the server is reached over HTTPS).
    var secureCookies: Bool { resolvedBaseURL.hasPrefix("https://") }
}

/// How Campus fetches from other servers what users name (podcast feeds and their covers).
public struct OutboundSettings: Sendable {
    /// Whether loopback, private and link-local addresses may be fetched too (an admin's choice,
    /// for feeds on the institution's own network).
    public var allowPrivateAddresses = false
    /// How long one fetch may take in all: connecting, redirects, the whole body.
    public var deadline: Duration = Podcasts.defaultDeadline

    public init() {}
}

/// How a server guards its connections and the work one listener can start.
public struct ConnectionLimits: Sendable {
    /// A connection that sends nothing (no request, or a request head or body that stalls) for this
    /// long is closed; a response being sent is never cut.
    public var idleTimeout: Duration = .seconds(60)
    /// The most connections open at once from one client address.
    public var connectionsPerAddress = 256
    /// The most ffmpeg transcodes at once, in all and per listener.
    public var transcodes = 8
    public var transcodesPerUser = 2

    public init() {}
}

/// The institution a server serves.
public struct Institution: Sendable, Equatable {
    public var name: String
    public var timeZone: TimeZone
}

/// Everything handlers share: the database, the account rules, the outbox, metrics.
final class Services: Sendable {
    let configuration: ServerConfiguration
    let database: Database
    let accounts: AccountService
    let timetable: TimetableService
    let leaderboards: Leaderboards
    let compete: CompeteService
    let listen: ListenService
    let responseCache: ResponseCache
    let transcodes: TranscodeSlots
    let outbox: Outbox
    let csrf: CSRFProtection
    let links: LinkSigner
    let metrics: PrometheusCollectorRegistry
    let logger: Logger
    let now: @Sendable () -> Date

    init(
        configuration: ServerConfiguration, database: Database, secret: String, metrics: PrometheusCollectorRegistry,
        mailSender: (any MailSender)?, logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.database = database
        self.metrics = metrics
        self.logger = logger
        self.now = now
        self.csrf = CSRFProtection(secret: secret)
        self.links = LinkSigner(secret: secret)
        let outbox = Outbox(
            database: database, sender: mailSender ?? LogMailSender(logger: logger), logger: logger, now: now)
        self.outbox = outbox
        self.timetable = TimetableService(database: database, timeZone: configuration.timeZone, now: now)
        self.responseCache = ResponseCache(database: database)
        self.transcodes = TranscodeSlots(
            total: configuration.limits.transcodes, perHolder: configuration.limits.transcodesPerUser)
        let leaderboards = Leaderboards(
            database: database, logger: logger, encodeEvent: Leaderboards.Snapshot.event(version:competition:ranked:))
        self.leaderboards = leaderboards
        self.compete = CompeteService(database: database, leaderboards: leaderboards, now: now, logger: logger)
        self.listen = ListenService(
            database: database, dataDirectory: configuration.dataDirectory, links: LinkSigner(secret: secret),
            outbound: configuration.outbound, now: now, logger: logger)
        self.accounts = AccountService(
            database: database, hasher: PasswordHasher(cost: configuration.bcryptCost),
            throttle: configuration.loginThrottle, outbox: outbox, baseURL: configuration.resolvedBaseURL, now: now,
            logger: logger, accountDeleted: { leaderboards.invalidate() })
    }

    static let institutionNameKey = "institution.name"
    static let defaultInstitutionName = "Campus"

    /// The institution's name (a setting, see `campus demo`) and time zone (configuration).
    func institution() async throws -> Institution {
        let name = try await database.read { db in try await AccountStore(db).setting(Self.institutionNameKey) }
        return Institution(name: name ?? Self.defaultInstitutionName, timeZone: configuration.timeZone)
    }
}

extension Database {
    static let secretKey = "server.secret"

    /// The server's secret (for CSRF tokens), made on first start and shared by every instance.
    func serverSecret() async throws -> String {
        if let secret = try await read({ db in try await AccountStore(db).setting(Self.secretKey) }) {
            return secret
        }
        let candidate = Token.make() + Token.make()
        do {
            return try await write { db in
                let store = AccountStore(db)
                if let existing = try await store.setting(Self.secretKey) { return existing }
                try await store.setSetting(Self.secretKey, to: candidate)
                return candidate
            }
        } catch  where isUniqueViolation(error) {
            // Another instance made it at the same moment.
            guard let secret = try await read({ db in try await AccountStore(db).setting(Self.secretKey) }) else {
                throw error
            }
            return secret
        }
    }
}
