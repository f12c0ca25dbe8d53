// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Campus",
    platforms: [.macOS(.v15), .iOS(.v17)],
    products: [
        .executable(name: "campus", targets: ["campus"]),
        .library(name: "CampusClient", targets: ["CampusClient"]),
        .library(name: "Accounts", targets: ["Accounts"]),
        .library(name: "Timetable", targets: ["Timetable"]),
        .library(name: "Compete", targets: ["Compete"]),
        .library(name: "Listen", targets: ["Listen"]),
        // For the fuzzers in Fuzz/, which build these with libFuzzer.
        .library(name: "InputRules", targets: ["InputRules"]),
        .library(name: "Formats", targets: ["Formats"]),
        .library(name: "HTTPInput", targets: ["HTTPInput"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/swift-server/swift-openapi-async-http-client.git", from: "1.5.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/adam-fowler/compress-nio.git", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/vapor/multipart-kit.git", from: "4.7.1"),
        .package(url: "https://github.com/JohnSundell/Ink.git", from: "0.6.0"),
        .package(url: "https://github.com/yaslab/CSV.swift.git", from: "2.5.2"),
        .package(url: "https://github.com/pointfreeco/swift-snapshot-testing.git", from: "1.19.7"),
    ],
    targets: [
        .target(name: "Localization"),
        .target(name: "InputRules", dependencies: ["Localization"]),
        .target(name: "Accounts", dependencies: ["InputRules"]),
        .target(name: "Timetable", dependencies: ["InputRules", "Localization"]),
        .target(name: "Compete", dependencies: ["InputRules", "Localization"]),
        .target(name: "Listen", dependencies: ["InputRules", "Localization"]),
        .target(
            name: "Formats",
            dependencies: [
                "InputRules", "Localization", "Timetable", "Compete", "Listen",
                .product(name: "CompressNIO", package: "compress-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "HTTPInput",
            dependencies: [
                "InputRules", "Localization",
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
            ]
        ),
        .target(
            name: "Storage",
            dependencies: [
                "Accounts", "Timetable", "Compete", "Listen", "Localization", "SharedHelpers", "Formats",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CampusAPI",
            dependencies: [.product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            resources: [.copy("openapi.yaml")],
            plugins: [
                .plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator"),
                .plugin(name: "APIDocumentJSONPlugin"),
            ]
        ),
        // openapi.yaml as JSON, made at build time for the server's start (Sources/APIDocumentJSON).
        .executableTarget(name: "APIDocumentJSON", dependencies: [.product(name: "Yams", package: "Yams")]),
        .plugin(name: "APIDocumentJSONPlugin", capability: .buildTool(), dependencies: ["APIDocumentJSON"]),
        .target(
            name: "CampusClient",
            dependencies: ["CampusAPI", .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .target(name: "SharedHelpers"),
        .target(
            name: "CampusHTTP",
            dependencies: [
                "InputRules", "HTTPInput", "Localization", "SharedHelpers",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ]
        ),
        .target(
            name: "CampusServer",
            dependencies: [
                "InputRules", "HTTPInput", "CampusHTTP", "SharedHelpers", "Accounts", "Timetable", "Compete",
                "Listen", "Formats", "Storage", "CampusAPI", "Localization",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "MultipartKit", package: "multipart-kit"),
                .product(name: "Ink", package: "Ink"),
                .product(name: "CSV", package: "CSV.swift"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
            ],
            resources: [.copy("Resources")],
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        .executableTarget(
            name: "campus",
            dependencies: [
                "CampusServer", "Accounts", "Timetable", "Storage", "InputRules", "Localization",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .target(
            name: "CampusTestSupport",
            dependencies: [
                "Storage", .product(name: "Logging", package: "swift-log"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            path: "Tests/Support"
        ),
        .testTarget(name: "InputRulesTests", dependencies: ["InputRules", "Localization"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization"]),
        .testTarget(
            name: "HTTPInputTests",
            dependencies: ["HTTPInput", .product(name: "NIOCore", package: "swift-nio")]),
        .testTarget(name: "AccountsTests", dependencies: ["Accounts", "InputRules"]),
        .testTarget(name: "TimetableTests", dependencies: ["Timetable"]),
        .testTarget(name: "CompeteTests", dependencies: ["Compete", "CampusTestSupport"]),
        .testTarget(name: "ListenTests", dependencies: ["Listen", "CampusTestSupport"]),
        .testTarget(
            name: "FormatsTests", dependencies: ["Formats", "Timetable", "Compete", "CampusTestSupport"],
            exclude: ["Data"]),
        .testTarget(
            name: "StorageTests",
            dependencies: [
                "Storage", "Accounts", "Timetable", "Formats", "CampusTestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            resources: [.copy("Fixtures")]),
        .testTarget(
            name: "CampusServerTests",
            dependencies: [
                "CampusServer", "CampusClient", "CampusAPI", "Storage", "Accounts", "Timetable", "Listen", "Compete",
                "Formats",
                "InputRules", "HTTPInput", "CampusHTTP", "CampusTestSupport", "SharedHelpers", "Localization",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdOTP", package: "hummingbird-auth"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "InMemoryLogging", package: "swift-log"),
                .product(name: "OpenAPIAsyncHTTPClient", package: "swift-openapi-async-http-client"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SnapshotTesting", package: "swift-snapshot-testing"),
                .product(name: "CompressNIO", package: "compress-nio"),
            ],
            exclude: ["__Snapshots__"]
        ),
    ]
)
