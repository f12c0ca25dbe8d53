/// Seed 001's «Сведения»: what Campus is, its version, and the licences of what it is made of.
struct AboutPage: PageModel {
    static let template = "about"
    static let section: SiteSection? = nil

    struct Part: Sendable {
        var name: String
        var licence: String
        var url: String
    }

    /// The version of Campus's API (openapi.yaml's `info.version`), which is Campus's version.
    var version: String
    var parts: [Part] = Self.parts
    var tools: [Part] = Self.tools

    /// The libraries built into `campus` (Package.swift's dependencies, which
    /// `AboutPageTests` checks against Package.resolved) and the parts they bring in that
    /// carry their own licences.
    static let parts: [Part] = [
        .init(name: "Hummingbird", licence: "Apache 2.0", url: "https://github.com/hummingbird-project/hummingbird"),
        .init(
            name: "hummingbird-auth", licence: "Apache 2.0",
            url: "https://github.com/hummingbird-project/hummingbird-auth"),
        .init(name: "SwiftNIO", licence: "Apache 2.0", url: "https://github.com/apple/swift-nio"),
        .init(name: "swift-nio-extras", licence: "Apache 2.0", url: "https://github.com/apple/swift-nio-extras"),
        .init(name: "swift-nio-ssl", licence: "Apache 2.0", url: "https://github.com/apple/swift-nio-ssl"),
        .init(name: "compress-nio", licence: "Apache 2.0", url: "https://github.com/adam-fowler/compress-nio"),
        .init(name: "swift-http-types", licence: "Apache 2.0", url: "https://github.com/apple/swift-http-types"),
        .init(
            name: "Swift OpenAPI Runtime", licence: "Apache 2.0", url: "https://github.com/apple/swift-openapi-runtime"),
        .init(
            name: "swift-openapi-hummingbird", licence: "Apache 2.0",
            url: "https://github.com/hummingbird-project/swift-openapi-hummingbird"),
        .init(
            name: "swift-openapi-async-http-client", licence: "Apache 2.0",
            url: "https://github.com/swift-server/swift-openapi-async-http-client"),
        .init(name: "AsyncHTTPClient", licence: "Apache 2.0", url: "https://github.com/swift-server/async-http-client"),
        .init(name: "SQLKit", licence: "MIT", url: "https://github.com/vapor/sql-kit"),
        .init(name: "SQLiteKit", licence: "MIT", url: "https://github.com/vapor/sqlite-kit"),
        .init(name: "PostgresKit", licence: "MIT", url: "https://github.com/vapor/postgres-kit"),
        .init(name: "MultipartKit", licence: "MIT", url: "https://github.com/vapor/multipart-kit"),
        .init(name: "JWTKit", licence: "MIT", url: "https://github.com/vapor/jwt-kit"),
        .init(name: "SQLite", licence: "public domain", url: "https://sqlite.org/copyright.html"),
        .init(
            name: "swift-mustache", licence: "Apache 2.0", url: "https://github.com/hummingbird-project/swift-mustache"),
        .init(name: "Yams", licence: "MIT", url: "https://github.com/jpsim/Yams"),
        .init(name: "Ink", licence: "MIT", url: "https://github.com/JohnSundell/Ink"),
        .init(name: "CSV.swift", licence: "MIT", url: "https://github.com/yaslab/CSV.swift"),
        .init(name: "swift-crypto", licence: "Apache 2.0", url: "https://github.com/apple/swift-crypto"),
        .init(name: "BoringSSL", licence: "ISC and OpenSSL", url: "https://boringssl.googlesource.com/boringssl"),
        .init(
            name: "swift-argument-parser", licence: "Apache 2.0", url: "https://github.com/apple/swift-argument-parser"),
        .init(name: "swift-log", licence: "Apache 2.0", url: "https://github.com/apple/swift-log"),
        .init(name: "swift-metrics", licence: "Apache 2.0", url: "https://github.com/apple/swift-metrics"),
        .init(name: "swift-prometheus", licence: "Apache 2.0", url: "https://github.com/swift-server/swift-prometheus"),
        .init(
            name: "swift-service-lifecycle", licence: "Apache 2.0",
            url: "https://github.com/swift-server/swift-service-lifecycle"),
        .init(name: "Swift and Foundation", licence: "Apache 2.0", url: "https://swift.org/legal/"),
    ]

    /// Programs Campus runs but does not contain.
    static let tools: [Part] = [
        .init(
            name: "FFmpeg (transcoding, covers, radio)", licence: "LGPL 2.1 or later",
            url: "https://ffmpeg.org/legal.html"),
        .init(
            name: "eSpeak NG (the demo's spoken items)", licence: "GPL 3", url: "https://github.com/espeak-ng/espeak-ng"
        ),
    ]
}
