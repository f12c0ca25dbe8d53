// swift-tools-version:6.2
// The fuzzers of Campus's readers (libFuzzer). Built and run by scripts/fuzz, which says how;
// a normal `swift build` of Campus never builds them.
import PackageDescription

let campus: [Target.Dependency] = [
    .product(name: "Formats", package: "Campus"), .product(name: "Timetable", package: "Campus"),
    .product(name: "InputRules", package: "Campus"), .product(name: "HTTPInput", package: "Campus"),
    .product(name: "Compete", package: "Campus"),
]

let package = Package(
    name: "CampusFuzz",
    dependencies: [
        .package(name: "Campus", path: ".."),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
    ],
    targets: [
        .target(name: "FuzzSupport", dependencies: campus + [.product(name: "NIOCore", package: "swift-nio")]),
        .executableTarget(name: "FuzzIIS", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzOddEven", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzKMA", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzGPX", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzRSS", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzAudioProbe", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzRange", dependencies: ["FuzzSupport"]),
        .executableTarget(name: "FuzzMultipart", dependencies: ["FuzzSupport"]),
        .executableTarget(
            name: "FuzzRequestValidator",
            dependencies: [
                "FuzzSupport", .product(name: "Yams", package: "Yams"),
                .product(name: "Accounts", package: "Campus"),
            ]),
        .executableTarget(name: "FuzzDates", dependencies: ["FuzzSupport"]),
    ]
)
