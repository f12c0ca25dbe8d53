import Accounts
import CampusHTTP
import Foundation
import Logging
import Prometheus
import Storage

/// How a Campus server is set up: flags, environment variables and their defaults.
public struct ServerConfiguration: Sendable {
    public var host: String = "127.0.0.1"
    public var port: Int = 8080
    /// What is this instance's own: the SQLite file, the mail folder of a server without SMTP.
    public var dataDirectory: String = "./campus-data"
    /// Where the files the catalogue points to are kept (``MediaDirectory``): the data directory
    /// unless given; instances of one PostgreSQL database share it.
    public var mediaDirectory: String?
    public var resolvedMediaDirectory: String { mediaDirectory ?? dataDirectory }
    public var database: DatabaseLocation
    /// The address users reach the server by, for links in mail; defaults to http://host:port.
    public var baseURL: String?
    /// The address other Campus instances reach this one by, to relay the radio sources it holds;
    /// defaults to http://host:port as it listens.
    public var instanceURL: String?
    /// The institution's time zone: lesson times are wall-clock times there.
    public var timeZone: TimeZone = TimeZone(identifier: "Europe/Minsk") ?? .gmt
    /// bcrypt's cost factor; each step doubles the work of checking a password.
    public var bcryptCost: UInt8 = 12
    /// Take the client address from `X-Forwarded-For` (only behind a reverse proxy you run).
    public var trustForwardedFor = false
    public var loginThrottle = LoginThrottle()
    /// Load the demo institution and accounts on start.
    public var demo = false
    /// With `demo` and no `libraryFolder`: make the demo's media library with ffmpeg (in
    /// `demo-media` of the data directory), scan it, and keep its radio station on the air with
    /// its programme (``DemoMedia``). `campus serve --demo` turns it on; tests that need no media
    /// leave it off, which saves them making it.
    public var demoMedia = false
    /// The institution's language (a catalogue's code); nil is English, or Russian for the demo.
    public var language: String?
    /// The language pages are in for whoever has not chosen and whose browser asks for none
    /// Campus speaks.
    public var institutionLanguage: String { language ?? (demo ? "ru" : "en") }
    /// How often mail is retried and expired sessions are removed.
    public var housekeepingInterval: Duration = .seconds(60)
    /// An IIS-compatible server to sync the timetable from, if any.
    public var iisURL: URL?

    /// Where teachers' photos may come from: the IIS server's origin (BSUIR's by default, where
    /// imported IIS data points). A page shows a photo only from here (the content security
    /// policy allows these and no other image hosts).
    public var photoOrigins: [String] {
        let iis = iisURL.flatMap { url -> String? in
            guard let scheme = url.scheme, let host = url.host else { return nil }
            return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
        }
        return [iis ?? "https://iis.bsuir.by"].filter { SecurityHeadersMiddleware.isOrigin($0) }
    }
    public var iisSyncInterval: Duration = .seconds(6 * 3600)
    /// How long the audit log keeps an entry (about 13 months: a year's audit and its review).
    public var auditKept: Duration = .seconds(400 * 86_400)
    /// The roles that act only with two-factor sign-in on (`--require-2fa-for admin,organizer`).
    public var twoFactorRoles: Set<Role> = []
    /// Scheduled backups (`--backup-every`): how often; nil makes none.
    public var backupInterval: Duration?
    /// How many scheduled backups are kept (`--backup-keep`).
    public var backupsKept = 7
    /// Where scheduled backups go (`--backup-dir`); by default `backups` in the data directory.
    public var backupDirectory: String?
    public var resolvedBackupDirectory: String {
        backupDirectory ?? URL(fileURLWithPath: dataDirectory).appendingPathComponent("backups").path
    }
    /// How often the podcasts imported from the web are read again (their new episodes told).
    public var podcastRefreshInterval: Duration = .seconds(3600)
    /// A folder of audio files scanned into the catalogue before the server starts serving.
    public var libraryFolder: String?
    /// Fetching podcast feeds and covers: from private addresses too, and the deadline.
    public var outbound = OutboundSettings()
    /// How the server guards its connections and its ffmpeg processes.
    public var limits = ConnectionLimits()
    /// Origins of push services Campus may send to although they are not https on a public
    /// address (`--push-allow http://127.0.0.1:8099`: a test push service, or the institution's own).
    public var pushAllowed: [String] = []
    /// Who runs the server, for push services (the VAPID `sub`): a mailto: or https: URL; the
    /// sender of mail's address by default.
    public var pushContact: String?
    /// The SMTP server mail is submitted to (`--smtp-url`, `--mail-from`); without it mail is
    /// written to the `mail` folder of the data directory (``FileMailSender``).
    public var smtp: SMTPSettings?
    /// The university's OpenID Connect provider (`--oidc-issuer` and the rest), if any.
    public var singleSignOn: SingleSignOnSettings?
    /// Whether accounts may sign in, register and reset passwords with a password of Campus's
    /// own (`--password-sign-in off` leaves only the provider).
    public var passwordSignIn = true

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

/// The OpenID Connect provider Campus signs people in with: its issuer (discovery is read from
/// `ISSUER/.well-known/openid-configuration`), Campus's client there, the name the button shows,
/// and the ID token claims that say a person's role and student group.
public struct SingleSignOnSettings: Sendable {
    public var issuer: String
    public var clientID: String
    public var clientSecret: String
    /// "Sign in with NAME".
    public var name: String
    /// A claim whose value (a text or a list) holds `admin` or `organizer`; the role follows it
    /// at each sign-in. Without it roles are given in Campus.
    public var roleClaim: String?
    /// A claim holding the student's group; set at each sign-in when the timetable has the group.
    public var groupClaim: String?

    public init(
        issuer: String, clientID: String, clientSecret: String, name: String, roleClaim: String? = nil,
        groupClaim: String? = nil
    ) {
        self.issuer = issuer
        self.clientID = clientID
        self.clientSecret = clientSecret
        self.name = name
        self.roleClaim = roleClaim
        self.groupClaim = groupClaim
    }

    /// The issuer's origin (`https://host[:port]`), where a browser logging out is sent.
    public var origin: String {
        guard let url = URL(string: issuer), let scheme = url.scheme, let host = url.host else { return "" }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }
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

extension ServerConfiguration {
    /// An origin as `--push-allow` takes it (`http://127.0.0.1:8099`), normalised; nil when the
    /// text is no `http(s)://host[:port]`.
    public static func pushOrigin(_ text: String) -> String? { PushEndpointPolicy.origin(text) }
}

extension ServerConfiguration {
    /// What delivers mail: the SMTP server when one is set, else files in the data directory.
    func mailSender(logger: Logger) -> any MailSender {
        if let smtp { return SMTPMailSender(settings: smtp, logger: logger) }
        return FileMailSender(dataDirectory: dataDirectory, logger: logger)
    }
}
