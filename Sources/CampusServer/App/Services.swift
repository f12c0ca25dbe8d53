import Accounts
import CampusHTTP
import Foundation
import Localization
import Logging
import Prometheus
import Storage

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
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    let leaderboards: Leaderboards
    let compete: CompeteService
    let listen: ListenService
    let responseCache: ResponseCache
    let transcodes: TranscodeSlots
    let outbox: Outbox
    let csrf: CSRFProtection
    let links: LinkSigner
    let metrics: PrometheusCollectorRegistry
    /// The languages Campus speaks, and the institution's.
    let languages: Languages
    let logger: Logger
    let now: @Sendable () -> Date

    init(
        configuration: ServerConfiguration, database: Database, secret: String, metrics: PrometheusCollectorRegistry,
        mailSender: (any MailSender)?, languages: Languages, logger: Logger, now: @escaping @Sendable () -> Date
    ) {
        self.configuration = configuration
        self.languages = languages
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
        self.responseCache = ResponseCache(version: {
            try await database.read { db in try await TimetableStore(db).version() }
        })
        let cache = self.responseCache
        self.directory = TimetableDirectory(database: database, changed: { cache.invalidate() })
        self.myTimetable = MyTimetableService(
            database: database, timetable: timetable, directory: directory, now: now)
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
            throttle: configuration.loginThrottle, outbox: outbox, baseURL: configuration.resolvedBaseURL,
            languages: languages, now: now,
            logger: logger, accountDeleted: { leaderboards.invalidate() })
    }

    static let defaultInstitutionName = "Campus"

    /// The institution's name (a setting, see `campus demo`) and time zone (configuration).
    func institution() async throws -> Institution {
        let name = try await database.read { db in try await SettingsStore(db).value(.institutionName) }
        return Institution(name: name ?? Self.defaultInstitutionName, timeZone: configuration.timeZone)
    }
}
