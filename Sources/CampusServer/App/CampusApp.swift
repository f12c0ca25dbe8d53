import CampusHTTP
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

/// Builds the Campus server: database, migrations, the API generated from openapi.yaml, the web
/// app, background jobs.
public enum CampusApp {
    /// Opens the database, applies migrations, loads the demo if asked, and returns an
    /// application ready to `runService()`. The database closes when the application stops.
    public static func make(
        configuration: ServerConfiguration,
        logger: Logger,
        mailSender: (any MailSender)? = nil,
        now: @escaping @Sendable () -> Date = { Date() },
        onRunning: @escaping @Sendable (Int) async -> Void = { _ in }
    ) async throws -> some ApplicationProtocol {
        let resources = try Resources.locate()
        // The API document (most of it reading YAML) is made on a thread of the pool while the
        // catalogues' headers are read and the database opens, migrates and loads the demo.
        let reading = NIOThreadPool.singleton.runIfActive(eventLoop: MultiThreadedEventLoopGroup.singleton.any()) {
            try APIDocumentation.bundled(timeZone: configuration.timeZone)
        }
        // A catalogue with a broken header or an unknown --language stops the start, with why.
        let languages = try LocalizedTemplates.languages(
            directory: resources.translations, institutionDefault: configuration.institutionLanguage)
        let templates = try LocalizedTemplates(
            directory: resources.templates, scripts: resources.staticFiles, languages: languages)
        let database = try await Database.open(configuration.database, logger: logger)
        do {
            try await database.migrate(logger: logger)
            try await MediaDirectory.prepare(configuration.resolvedMediaDirectory, database: database)
            if configuration.demo {
                try await Demo.load(
                    into: database, bcryptCost: configuration.bcryptCost, logger: logger, now: now(),
                    timeZone: configuration.timeZone)
            }
            // The demo carries its media (made with ffmpeg) and a station, unless a library was given.
            var libraryFolder = configuration.libraryFolder
            let demoMedia = configuration.demo && configuration.demoMedia && libraryFolder == nil
            if demoMedia {
                libraryFolder = await DemoMedia.make(
                    mediaDirectory: configuration.resolvedMediaDirectory, logger: logger)
            }
            // The library is caught up with its folder (mostly the database and ffprobe) while this
            // thread makes the services and the router; both are done before the first request.
            let scannedFolder = libraryFolder
            async let scanned: Void = scanLibrary(
                scannedFolder, database: database, configuration: configuration, logger: logger, now: now)
            let secret = try await database.serverSecret()
            let documentation = try await reading.get()
            let services = Services(
                configuration: configuration, database: database, secret: secret,
                pushKey: try await database.pushKey(), metrics: MetricsRegistry.registry,
                mailSender: mailSender, languages: languages,
                cacheKeyParameters: documentation.cachedQueryParameters, logger: logger, now: now)
            let (router, early) = try await makeRouter(
                services: services, documentation: documentation, templates: templates, resources: resources)
            let cached = CachedAnswer(
                cache: services.responseCache, today: { [timetable = services.timetable] in timetable.todayKey() })
            try await scanned
            let demoStation = try await demoMedia ? DemoMedia.station(services: services, logger: logger) : nil
            let baseURL = configuration.resolvedBaseURL
            var jobs: [SharedJob] = [
                .housekeeping(
                    outbox: services.outbox, accounts: services.accounts, audit: services.audit,
                    interval: configuration.housekeepingInterval),
                .recordingRepair(services.liveRadio),
                .scheduleChanges(services.timetable, interval: configuration.housekeepingInterval),
                .reminders(services.reminders()), .examNotices(services.reminders()),
                .podcastRefresh(services.library, interval: configuration.podcastRefreshInterval, logger: logger),
            ]
            if let interval = configuration.backupInterval {
                jobs.append(
                    .backups(
                        Backups(
                            database: database, mediaDirectory: configuration.resolvedMediaDirectory, logger: logger,
                            now: now),
                        folder: URL(fileURLWithPath: configuration.resolvedBackupDirectory),
                        keep: configuration.backupsKept, interval: interval))
            }
            if let iisURL = configuration.iisURL {
                jobs.append(
                    .iisSync(
                        IISSync(baseURL: iisURL, database: database, logger: logger, timeZone: configuration.timeZone),
                        interval: configuration.iisSyncInterval, cache: services.responseCache, logger: logger))
            }
            services.overview.know(jobs)
            let background: [any Service] = [
                DatabaseService(database: database),
                services.sessions,
                services.leaderboards,
                services.liveTracks,
                services.liveChat,
                services.liveRadio,
                UploadRecoveryService(library: services.library),
                SharedJobs(jobs: jobs, database: database, instance: services.instance, logger: logger, now: now),
                MemoryTrimService(interval: .seconds(5), logger: logger),
                services.deliveryQueue(),
            ]
            return Application(
                responder: CompressingResponder(
                    EarlyAnswerResponder(
                        router.buildResponder(),
                        answers: [
                            cached
                        ] + early,
                        logText: { ErrorLog.text($0) })),
                server: CampusHTTPServer.builder(
                    idleTimeout: configuration.limits.idleTimeout,
                    perAddress: configuration.trustForwardedFor ? nil : configuration.limits.connectionsPerAddress,
                    liveSources: RadioRoutes.prefix,
                    immediate: [cached] + early.compactMap { $0 as? any ImmediateAnswer },
                    logger: logger, serverName: Self.serverName),
                configuration: .init(
                    address: .hostname(configuration.host, port: configuration.port), serverName: Self.serverName),
                services: background,
                onServerRunning: { channel in
                    let port = channel.localAddress?.port ?? configuration.port
                    services.liveRadio.serving(host: configuration.host, port: port)
                    // On the air once the server listens (relays find them there): the stations
                    // with AutoDJ playlists, and the demo's with its programme.
                    services.liveRadio.perform { [liveRadio = services.liveRadio, stations = services.stations] in
                        if let demoStation { _ = await liveRadio.playProgramme(demoStation) }
                        await liveRadio.startAutoDJ((try? await stations.stations()) ?? [])
                    }
                    logger.notice(
                        "Campus is running", metadata: ["url": "\(baseURL)/", "database": "\(database.location)"])
                    await onRunning(port)
                },
                logger: logger)
        } catch {
            await database.close()
            throw error
        }
    }

    /// The `Server` header of every answer.
    static let serverName = "Campus"

    /// Brings the catalogue up to date with the library folder given at start, if any.
    static func scanLibrary(
        _ folder: String?, database: Database, configuration: ServerConfiguration, logger: Logger,
        now: @escaping @Sendable () -> Date
    ) async throws {
        guard let folder else { return }
        let summary = try await LibraryScanner(
            database: database, mediaDirectory: configuration.resolvedMediaDirectory, logger: logger, now: now
        ).scan(folder)
        for failure in summary.failed.prefix(20) { logger.warning("Not readable: \(failure)") }
    }

    /// The router, and the answers made before it for paths it matched (``EarlyAnswerResponder``).
    static func makeRouter(
        services: Services, documentation: APIDocumentation, templates: LocalizedTemplates, resources: Resources
    ) async throws -> (Router<CampusRequestContext>, [any EarlyAnswer]) {
        let renderer = PageRenderer(
            configuration: services.configuration, authenticator: Authenticator(services), accounts: services.accounts,
            institution: { try await services.institution() },
            unread: { [notifications = services.notifications] in try await notifications.unread(of: $0) },
            now: services.now, templates: templates)
        let routes = RouteTable()
        let timetable = services.timetable

        // Middleware runs after the router matched a route, outermost first; each asks the
        // matched route (RouteLookupMiddleware puts it in the context) rather than the path.
        let router = Router(context: CampusRequestContext.self, options: [.autoGenerateHeadEndpoints])
        router.add(middleware: RouteLookupMiddleware(routes: routes))
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: MetricsMiddleware())
        router.add(middleware: ResponseCacheMiddleware(cache: services.responseCache, today: { timetable.todayKey() }))
        router.add(
            middleware: SecurityHeadersMiddleware(
                imageOrigins: services.configuration.photoOrigins,
                formOrigins: services.configuration.singleSignOn.map { [$0.origin] } ?? []))
        router.add(
            middleware: ProblemMiddleware(
                describe: { Problem(describing: $0) },
                htmlErrorPage: { problem, request, _ in renderer.errorPage(problem, request: request) },
                localize: { problem, request in renderer.translator(request).problem(problem) },
                logText: { ErrorLog.text($0) }))
        router.add(middleware: PathCheckMiddleware())
        router.add(middleware: BodyLimitMiddleware())
        let scopes = RequestScopeMiddleware(trustForwardedFor: services.configuration.trustForwardedFor)
        router.add(middleware: scopes)
        router.add(middleware: RequestValidationMiddleware(validator: documentation.validator))
        // The fast operations (`x-campus-fast-path`), asked by name by one middleware.
        let authenticator = Authenticator(services)
        let media = MediaStreamFastPath(
            database: services.database, links: services.links, transcodes: services.transcodes,
            allowPrivateAddresses: services.configuration.outbound.allowPrivateAddresses, authenticator: authenticator,
            logger: services.logger, scopes: scopes)
        let fastPaths = try FastPaths([
            RankingPageFastPath(compete: services.compete, authenticator: authenticator),
            RecordsFastPath(compete: services.compete, authenticator: authenticator),
            ScheduleFastPath(
                timetable: services.timetable, validator: documentation.validator, cache: services.responseCache,
                today: { timetable.todayKey() }),
            media,
        ])
        try fastPaths.check(documentation.routeProperties)
        router.add(middleware: fastPaths)

        try APIHandler(services: services).registerHandlers(
            on: RecordingTransport(router: router, routes: routes, documentation: documentation),
            configuration: Configuration(
                dateTranscoder: RFC3339DateTranscoder(timeZone: services.configuration.timeZone),
                jsonEncodingOptions: [.sortedKeys]))
        let pageRouter = PageRouter(router: router, routes: routes, renderer: renderer)
        registerPages(services: services, documentation: documentation, on: pageRouter)
        RadioRoutes(
            liveRadio: services.liveRadio, logger: services.logger, radio: services.radio, stations: services.stations,
            authenticator: Authenticator(services), baseURL: services.configuration.resolvedBaseURL
        ).register(on: router, routes: routes)
        try SubsonicRoutes(services: services, media: media).register(on: router, routes: routes)
        // Static files: the route is `/static/**`; FileMiddleware answers it from the bundle.
        // StaticFileCacheMiddleware says how long each may be kept (linked with its digest: a year).
        router.group("/static")
            .add(middleware: StaticFileCacheMiddleware())
            .add(middleware: FileMiddleware(resources.staticFiles, urlBasePath: "/static", logger: services.logger))
            // FileMiddleware serves a file only when what it wraps answers Hummingbird's own 404.
            .get("**") { request, _ -> Response in
                throw HTTPError(.notFound, message: "There is nothing at \(request.uri.path).")
            }
        routes.add(.get, "/static/**", RouteProperties(kind: .file))
        // Anything else under /api is the API's: a problem document, also for a browser.
        for method in [HTTPRequest.Method.get, .post, .put, .patch, .delete] {
            router.on("/api/**", method: method) { request, _ -> Response in
                throw Problem.notFound("There is nothing at {path}.", ["path": request.uri.path])
            }
            routes.add(method, "/api/**", RouteProperties(kind: .api))
        }
        // Last, after every route: it wraps only the not-found responder.
        router.add(middleware: MethodNotAllowedMiddleware(routes: routes))
        return (router, fastPaths.earlyAnswers)
    }
}

extension Services {
    /// The queue that tells and delivers, on this instance (``DeliveryQueue``).
    func deliveryQueue() -> DeliveryQueue {
        DeliveryQueue(
            database: database,
            changes: ChangeNotices(
                database: database, languages: languages, timeZone: configuration.timeZone, now: now),
            push: PushSender(
                key: notifications.vapidKey,
                subject: configuration.pushContact ?? "mailto:campus@"
                    + (URL(string: configuration.resolvedBaseURL)?.host ?? "localhost"),
                policy: notifications.pushPolicy),
            mail: outbox.sender,
            unsubscribeLinks: UnsubscribeLinks(links: links, baseURL: configuration.resolvedBaseURL),
            baseURL: configuration.resolvedBaseURL, languages: languages,
            instance: instance, logger: logger, now: now)
    }

    func reminders() -> Reminders {
        Reminders(
            database: database, timetable: timetable, languages: languages, timeZone: configuration.timeZone, now: now)
    }
}
