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
    /// Signing in at the university's OpenID provider (`--oidc-issuer`), when configured.
    let signOn: SingleSignOnService?
    let appCredentials: AppCredentialService
    let sessions: SessionMemory
    let timetable: TimetableService
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    let leaderboards: Leaderboards
    let liveTracks: LiveTracks
    let liveChat: LiveChat
    let compete: CompeteService
    let friends: FriendService
    let catalogue: CatalogueService
    let library: LibraryService
    let player: PlayerService
    let playlists: PlaylistService
    let feed: FeedService
    let reports: ReportService
    let audit: AuditService
    let overview: OverviewService
    let stations: StationService
    let radio: RadioHub
    let liveRadio: LiveRadio
    let responseCache: ResponseCache
    let transcodes: TranscodeSlots
    let outbox: Outbox
    let notifications: NotificationService
    let csrf: CSRFProtection
    let links: LinkSigner
    let metrics: PrometheusCollectorRegistry
    /// The languages Campus speaks, and the institution's.
    let languages: Languages
    /// This instance's name in job leases and radio announcements (``InstanceName``).
    let instance = InstanceName.make()
    let logger: Logger
    let now: @Sendable () -> Date

    init(
        configuration: ServerConfiguration, database: Database, secret: String, pushKey: VAPIDKey,
        metrics: PrometheusCollectorRegistry, mailSender: (any MailSender)?, languages: Languages,
        cacheKeyParameters: Set<String>, logger: Logger,
        now: @escaping @Sendable () -> Date
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
            database: database,
            sender: mailSender ?? configuration.mailSender(logger: logger),
            logger: logger, now: now)
        self.outbox = outbox
        self.notifications = NotificationService(
            database: database, pushPolicy: PushEndpointPolicy(allowed: configuration.pushAllowed), vapidKey: pushKey,
            now: now)
        let cache = ResponseCache(
            keyParameters: cacheKeyParameters,
            version: {
                try await database.read { db in try await TimetableStore(db).version() }
            })
        self.responseCache = cache
        self.timetable = TimetableService(
            database: database, timeZone: configuration.timeZone, now: now,
            version: { try await cache.currentVersion() })
        self.directory = TimetableDirectory(database: database, changed: { cache.invalidate() })
        self.myTimetable = MyTimetableService(
            database: database, timetable: timetable, directory: directory, now: now)
        let transcodes = TranscodeSlots(
            total: configuration.limits.transcodes, perHolder: configuration.limits.transcodesPerUser)
        self.transcodes = transcodes
        let leaderboards = Leaderboards(
            database: database, logger: logger, encodeEvent: Leaderboards.Snapshot.event(version:competition:ranked:))
        self.leaderboards = leaderboards
        let liveTracks = LiveTracks(database: database, logger: logger)
        self.liveTracks = liveTracks
        let liveChat = LiveChat(database: database, logger: logger)
        self.liveChat = liveChat
        self.compete = CompeteService(
            database: database, leaderboards: leaderboards, liveTracks: liveTracks, liveChat: liveChat,
            seriesRecords: SeriesRecords(database: database, leaderboards: leaderboards),
            notices: CompetitionNotices(languages: languages, timeZone: configuration.timeZone),
            timeZone: configuration.timeZone, now: now, logger: logger)
        self.friends = FriendService(
            database: database, notices: FriendNotices(languages: languages, timeZone: configuration.timeZone),
            now: now, logger: logger)
        let catalogue = CatalogueService(database: database, links: LinkSigner(secret: secret), now: now)
        self.catalogue = catalogue
        let listenNotices = ListenNotices(languages: languages, timeZone: configuration.timeZone, now: now)
        self.library = LibraryService(
            database: database, mediaDirectory: configuration.resolvedMediaDirectory, outbound: configuration.outbound,
            catalogue: catalogue, notices: listenNotices, now: now, logger: logger)
        self.player = PlayerService(database: database, catalogue: catalogue, now: now)
        self.playlists = PlaylistService(database: database, catalogue: catalogue, now: now)
        self.feed = FeedService(database: database, now: now)
        self.reports = ReportService(database: database, now: now)
        self.audit = AuditService(database: database, kept: configuration.auditKept, now: now)
        self.overview = OverviewService(database: database, configuration: configuration, instance: instance, now: now)
        let radio = RadioHub()
        self.radio = radio
        self.liveRadio = LiveRadio(
            hub: radio, database: database,
            recordings: RadioRecordings(
                database: database,
                directory: URL(fileURLWithPath: configuration.resolvedMediaDirectory).appendingPathComponent(
                    "recordings"
                )
                .path,
                timeZone: configuration.timeZone, logger: logger, now: now),
            slots: Services.fallbackSlots(configuration.limits), relayBase: configuration.instanceURL,
            instance: instance, notices: RadioNotices(languages: languages, timeZone: configuration.timeZone),
            timeZone: configuration.timeZone, logger: logger, now: now)
        self.stations = StationService(
            database: database, hasher: PasswordHasher(cost: configuration.bcryptCost), now: now,
            sourceFailures: FailureMemory(throttle: configuration.loginThrottle), timeZone: configuration.timeZone)
        let sessions = SessionMemory(database: database)
        self.sessions = sessions
        self.accounts = AccountService(
            database: database, hasher: PasswordHasher(cost: configuration.bcryptCost),
            throttle: configuration.loginThrottle, outbox: outbox, baseURL: configuration.resolvedBaseURL,
            languages: languages, now: now,
            logger: logger, accountDeleted: { leaderboards.invalidate() }, sessions: sessions,
            twoFactorRoles: configuration.twoFactorRoles, passwordSignIn: configuration.passwordSignIn)
        self.signOn = configuration.singleSignOn.map { [accounts] settings in
            SingleSignOnService(
                provider: OpenIDProvider(settings: settings, now: now, logger: logger), settings: settings,
                accounts: accounts, database: database, baseURL: configuration.resolvedBaseURL, now: now, logger: logger
            )
        }
        self.appCredentials = AppCredentialService(
            database: database, secret: secret, throttle: configuration.loginThrottle, sessions: sessions, now: now,
            logger: logger)
    }

    static let defaultInstitutionName = "Campus"

    /// The transcodes of radio fallbacks (``RadioFallback``): a bound of their own, as many as
    /// the listeners' (`--max-transcodes`), one per station, so that stations never take the
    /// slots of listeners' streams, nor listeners a station's.
    static func fallbackSlots(_ limits: ConnectionLimits) -> TranscodeSlots {
        TranscodeSlots(total: limits.transcodes, perHolder: 1)
    }

    /// The institution's name (a setting, see `campus demo`) and time zone (configuration).
    func institution() async throws -> Institution {
        let name = try await database.read { db in try await SettingsStore(db).value(.institutionName) }
        return Institution(name: name ?? Self.defaultInstitutionName, timeZone: configuration.timeZone)
    }
}
