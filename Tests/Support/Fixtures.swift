import Foundation

/// The real data in `../shared/fixtures` beside the repository (BSUIR IIS responses, GPX tracks).
public enum Fixtures {
    /// `…/shared/fixtures`, found from this file's place in the repository.
    public static let directory: URL = {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        if let override = ProcessInfo.processInfo.environment["CAMPUS_FIXTURES"] {
            return URL(fileURLWithPath: override)
        }
        return repository.deletingLastPathComponent().appendingPathComponent("shared/fixtures")
    }()

    public static func url(_ path: String) -> URL { directory.appendingPathComponent(path) }

    public static func data(_ path: String) throws -> Data { try Data(contentsOf: url(path)) }

    /// Every IIS fixture file name.
    public static var iisFiles: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: url("iis").path)) ?? []).filter { $0.hasSuffix(".json") }
            .sorted()
    }
}
