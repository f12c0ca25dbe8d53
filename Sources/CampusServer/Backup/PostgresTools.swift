import Foundation
import InputRules
import Localization

/// `pg_dump` and `pg_restore`, PostgreSQL's own tools for a consistent copy of a running
/// database (one snapshot, custom format) and its return into an empty one. The password goes
/// in the environment (`PGPASSWORD`), never on a command line that `ps` shows.
struct PostgresTools: Sendable {
    var url: String

    /// `pg_dump -Fc` of the database into `file`.
    func dump(to file: URL) async throws {
        try await run("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", "--file=\(file.path)"])
    }

    /// `pg_restore` of `file` into the (empty) database, in one transaction: all or nothing.
    func restore(from file: URL) async throws {
        try await run(
            "pg_restore", ["--no-owner", "--no-privileges", "--exit-on-error", "--single-transaction", file.path])
    }

    /// The tool in `PATH`, else the newest of Debian's `/usr/lib/postgresql/*/bin`.
    static func tool(_ name: String) -> String? {
        let paths = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in paths {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        let versions = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        for version in versions.sorted(by: { $0.compare($1, options: .numeric) == .orderedDescending }) {
            let candidate = "/usr/lib/postgresql/\(version)/bin/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// The URL without its password, and the password apart.
    var connection: (url: String, password: String?) {
        guard var parts = URLComponents(string: url) else { return (url, nil) }
        let password = parts.password
        parts.password = nil
        return (parts.string ?? url, password)
    }

    private func run(_ name: String, _ arguments: [String]) async throws {
        guard let path = Self.tool(name) else {
            throw Refusal(
                .unavailable(retryAfterSeconds: nil),
                phrase: Phrase(
                    "{tool} is not installed: PostgreSQL's client tools (Debian's postgresql-client) make and restore its backups.",
                    ["tool": name]))
        }
        let (url, password) = connection
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments + ["--dbname=\(url)"]
        var environment = ProcessInfo.processInfo.environment
        if let password { environment["PGPASSWORD"] = password }
        process.environment = environment
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let status: Int32 = try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do { try process.run() } catch { continuation.resume(throwing: error) }
        }
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        guard status == 0 else {
            throw Refusal(
                .unavailable(retryAfterSeconds: nil),
                phrase: Phrase(
                    "{tool} failed: {error}",
                    ["tool": name, "error": String(said.trimmingCharacters(in: .whitespacesAndNewlines).prefix(2000))]))
        }
    }
}
