import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import Localization
import Logging
import Storage

/// The Subsonic API (1.16.1, with OpenSubsonic's extensions) under `/rest/`, so that the music
/// players students already have (DSub, Symfonium, Substreamer, Tempo, Feishin…) play Campus's
/// library: `/rest/getAlbum` or `/rest/getAlbum.view`, GET or POST with form parameters, XML or
/// JSON (`f=json`). Players sign in with an API key or an app password (`AppCredentialService`),
/// never the account's password. Every answer is HTTP 200 with Subsonic's `status`; a refusal
/// carries Subsonic's error code.
struct SubsonicRoutes: Sendable {
    let languages: Languages
    let authenticator: Authenticator
    let logger: Logger

    static let path = "/rest/{method}"
    /// The largest form a player posts (a play queue of a few thousand ids fits).
    static let bodyLimit = 256 * 1024

    typealias Handler = @Sendable (SubsonicCall) async throws -> SubsonicReply

    /// Every method, by name.
    let handlers: SubsonicMethods

    /// Throws ``SubsonicMethods/Duplicate`` when two groups answer one method.
    init(services: Services, media: MediaStreamFastPath) throws {
        languages = services.languages
        authenticator = Authenticator(services)
        logger = services.logger
        let nowPlaying = SubsonicNowPlaying()
        handlers = try SubsonicMethods([
            ("system", SubsonicSystem().handlers),
            (
                "browsing",
                SubsonicBrowsing(
                    catalogue: services.catalogue, configuration: services.configuration, links: services.links
                ).handlers
            ),
            ("lists", SubsonicLists(catalogue: services.catalogue, now: services.now, nowPlaying: nowPlaying).handlers),
            (
                "media",
                SubsonicMedia(catalogue: services.catalogue, library: services.library, streamer: media).handlers
            ),
            (
                "collections",
                SubsonicCollections(
                    catalogue: services.catalogue, player: services.player, playlists: services.playlists,
                    now: services.now, nowPlaying: nowPlaying
                ).handlers
            ),
            ("play queue", SubsonicPlayQueue(player: services.player).handlers),
            (
                "podcasts",
                SubsonicPodcasts(
                    catalogue: services.catalogue, configuration: services.configuration, stations: services.stations
                ).handlers
            ),
        ])
    }

    /// Methods a player may call without signing in (OpenSubsonic asks this of the extensions).
    static let open: Set<String> = ["getOpenSubsonicExtensions"]

    func register(on router: Router<CampusRequestContext>, routes: RouteTable) {
        router.get(RouterPath(Self.path)) { request, context in try await answer(request, context) }
        router.post(RouterPath(Self.path)) { request, context in try await answer(request, context) }
        routes.add(.get, Self.path, RouteProperties(kind: .api, bodyLimit: Self.bodyLimit))
        routes.add(.post, Self.path, RouteProperties(kind: .api, bodyLimit: Self.bodyLimit))
    }

    func answer(_ request: Request, _ context: CampusRequestContext) async throws -> Response {
        var fields = URLEncodedForm.fields(in: request.uri.query ?? "") ?? []
        let contentType = request.headers[.contentType]?.lowercased() ?? ""
        if request.method == .post, contentType.hasPrefix("application/x-www-form-urlencoded") {
            let body = try await request.body.collect(upTo: Self.bodyLimit)
            fields += URLEncodedForm.fields(in: String(buffer: body)) ?? []
        }
        let format: SubsonicAnswer.Format =
            switch fields.last(where: { $0.name == "f" })?.value {
            case "json": .json
            default: .xml
            }
        var method = context.parameters.get("method") ?? ""
        if method.hasSuffix(".view") { method = String(method.dropLast(5)) }
        var user: AccountHolder?
        // Refusals are said in the listener's language: the account's, or else the request's.
        func translator() -> Translator {
            languages.choose(choice: user?.user.language, acceptLanguage: request.headers[.acceptLanguage])
        }
        do {
            guard let handler = handlers[method] else {
                var response = try SubsonicAnswer.failed(
                    SubsonicError(.notFound, "There is no method {method}.", ["method": String(method.prefix(60))]),
                    translator()
                )
                .response(format)
                response.status = .notFound
                return response
            }
            user = Self.open.contains(method) ? nil : try await authenticate(fields)
            let call = SubsonicCall(fields: fields, user: user, request: request, context: context, format: format)
            switch try await handler(call) {
            case .answer(let name, let node): return try SubsonicAnswer.ok(name, node).response(format)
            case .list(let name, let nodes): return try SubsonicAnswer.ok(name, list: nodes).response(format)
            case .empty: return try SubsonicAnswer.ok().response(format)
            case .response(let response): return response
            }
        } catch {
            let failure = SubsonicError(error)
            if failure.code == .generic, failure.problem == nil, !(error is SubsonicError) {
                logger.error(
                    "subsonic request failed", metadata: ["method": "\(method)", "error": "\(ErrorLog.text(error))"])
            }
            return try SubsonicAnswer.failed(failure, translator()).response(format)
        }
    }

    /// The account of the request's credentials: `apiKey`, or `u` with `t` and `s`, or `u` with `p`.
    func authenticate(_ fields: [(name: String, value: String)]) async throws -> AccountHolder {
        func value(_ name: String) -> String? { fields.last(where: { $0.name == name })?.value }
        let signIn: AppCredentialService.SignIn
        if let key = value("apiKey") {
            guard value("u") == nil else {
                throw SubsonicError(.conflictingAuthentication, "Send either apiKey or u, not both.")
            }
            signIn = .apiKey(key)
        } else {
            guard let user = value("u") else { throw SubsonicError.missing("u") }
            if let token = value("t") {
                guard let salt = value("s") else { throw SubsonicError.missing("s") }
                signIn = .token(user: user, token: token, salt: salt)
            } else if let password = value("p") {
                signIn = .password(user: user, password: password)
            } else {
                throw SubsonicError.missing("t")
            }
        }
        do {
            return AccountHolder(user: try await authenticator.player(signIn))
        } catch let failure as AppCredentialService.SignInFailure {
            switch failure {
            case .wrongCredentials:
                throw SubsonicError(.wrongCredentials, "Wrong username or password.")
            case .noAppPassword:
                throw SubsonicError(
                    .tokenNotSupported,
                    "This account has no app password: make one on your Campus profile page and sign in with it.")
            case .unknownAPIKey:
                throw SubsonicError(.invalidAPIKey, "The API key is unknown or revoked.")
            case .throttled(let seconds):
                // The sign-in page's words, with Subsonic's code for a sign-in that failed.
                var refusal = SubsonicError(AccountService.tooManyAttempts(retryAfterSeconds: seconds))
                refusal.code = .wrongCredentials
                throw refusal
            }
        }
    }
}

/// The signed-in account of a call (a wrapper, so that an open method's call holds none).
struct AccountHolder: Sendable {
    var user: Account
}

/// What a method answers: a payload element, nothing but `ok`, or a response of its own (media).
enum SubsonicReply: Sendable {
    case answer(String, SubsonicNode)
    /// A list of elements at the top of the answer.
    case list(String, [SubsonicNode])
    case empty
    case response(Response)
}

/// One call of a method: its parameters (a name may repeat: `id=1&id=2`) and its account.
struct SubsonicCall: Sendable {
    let fields: [(name: String, value: String)]
    private let holder: AccountHolder?
    let request: Request
    let context: CampusRequestContext
    let format: SubsonicAnswer.Format

    init(
        fields: [(name: String, value: String)], user: AccountHolder?, request: Request,
        context: CampusRequestContext, format: SubsonicAnswer.Format
    ) {
        self.fields = fields
        self.holder = user
        self.request = request
        self.context = context
        self.format = format
    }

    /// The signed-in account (every method but the open ones has one).
    var user: Account {
        get throws {
            guard let holder else { throw SubsonicError(.wrongCredentials, "Sign in first.") }
            return holder.user
        }
    }

    func value(_ name: String) -> String? { fields.last(where: { $0.name == name })?.value }

    func values(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    func required(_ name: String) throws -> String {
        guard let value = value(name), !value.isEmpty else { throw SubsonicError.missing(name) }
        return value
    }

    /// A whole number, if given; error 0 when it is not one.
    func int(_ name: String) throws -> Int? {
        guard let text = value(name), !text.isEmpty else { return nil }
        return try Self.number(text, name)
    }

    /// A whole number of at most 18 digits (so that a thousand times it still fits), or error 0.
    static func number(_ text: String, _ name: String) throws -> Int {
        guard text.utf8.count <= 18, let number = Int(text) else { throw SubsonicError.notANumber(name, text) }
        return number
    }

    /// The longest position in an item, in seconds: the API's (`PlayerPayload.position`).
    static let longestPosition = 1_000_000

    /// A position in an item, given in milliseconds (`createBookmark`, `savePlayQueue`), in
    /// seconds from 0 to ``longestPosition``.
    func position(_ name: String) throws -> Double? {
        guard let milliseconds = try int(name) else { return nil }
        return Double(min(max(milliseconds, 0), Self.longestPosition * 1000)) / 1000
    }

    /// The moments given in milliseconds since 1970 (`scrobble`'s `time`, one per `id`), each
    /// within the dates Campus works with (``DateRules``); an empty one is none (nil).
    func moments(_ name: String) throws -> [Date?] {
        try values(name).map { (text: String) throws -> Date? in
            guard !text.isEmpty else { return nil }
            let milliseconds = try Self.number(text, name)
            let moment = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
            guard DateRules.isSupported(moment) else {
                throw SubsonicError(
                    .generic, "{field} is outside {firstDay} to {lastDay}.",
                    DateRules.rangeValues.merging(["field": name]) { _, new in new })
            }
            return moment
        }
    }

    /// A whole number kept within `range` (a size past the largest is the largest).
    func int(_ name: String, default value: Int, in range: ClosedRange<Int>) throws -> Int {
        min(max(try int(name) ?? value, range.lowerBound), range.upperBound)
    }

    func bool(_ name: String) -> Bool? {
        value(name).map { $0 == "true" || $0 == "1" }
    }

    func id(_ name: String = "id") throws -> SubsonicID {
        let text = try required(name)
        guard let id = SubsonicID(text) else { throw SubsonicError.unknownID(text) }
        return id
    }

    func ids(_ name: String) throws -> [SubsonicID] {
        try values(name).filter { !$0.isEmpty }.prefix(5000).map { text in
            guard let id = SubsonicID(text) else { throw SubsonicError.unknownID(text) }
            return id
        }
    }
}
