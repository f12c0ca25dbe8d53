import Foundation
import Localization
import Storage

/// The directory of the files the catalogue points to and every instance must read: uploaded
/// audio (`uploads/`), covers (`covers/`), radio recordings (`recordings/`) and the demo's
/// media (`demo-media/`). It is `--media-dir` (env `CAMPUS_MEDIA_DIR`), by default the data
/// directory; instances sharing a PostgreSQL database must share it (an NFS or CephFS mount at
/// the same path on each: the database keeps files' full paths). docs/DEPLOYING.md says which
/// file goes where.
///
/// The first instance of a PostgreSQL database puts a marker file in it (`.campus-media`, a
/// random name) and keeps the name and the directory's path in the database; an instance whose
/// media directory lacks that marker, has another, or is at another path does not start: it
/// would write files the others cannot read and point the catalogue at them.
enum MediaDirectory {
    static let markerName = ".campus-media"

    /// The directory is not the one the database's other instances use.
    struct Mismatch: PhrasedError {
        var phrase: Phrase
    }

    /// Makes the directory and, with PostgreSQL, checks (or, first, marks) that it is the one
    /// every instance of the database shares.
    static func prepare(_ path: String, database: Database) async throws {
        let directory = URL(fileURLWithPath: path).standardizedFileURL
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        guard database.kind == .postgres else { return }
        let resolved = directory.resolvingSymlinksInPath().path
        let marker = directory.appendingPathComponent(markerName)
        let found = Self.read(marker)
        let proposed = found ?? UUID().uuidString.lowercased()
        let kept = try await database.write { db -> String? in
            let settings = SettingsStore(db)
            if let kept = try await settings.value(.mediaDirectoryID) { return kept }
            try await settings.set(.mediaDirectoryID, to: "\(proposed) \(resolved)")
            return nil
        }
        guard let kept else {
            // This instance is the first: the marker says so to the next ones.
            if found == nil { try write(proposed, to: marker) }
            return
        }
        let parts = kept.split(separator: " ", maxSplits: 1).map(String.init)
        let (name, keptPath) = (parts.first ?? "", parts.count > 1 ? parts[1] : "")
        guard let found, found == name else {
            throw Mismatch(
                phrase: Phrase(
                    "The media directory {path} is not the one this database's other instances share ({kept}): it lacks their marker file .campus-media. Give every instance the same shared directory with --media-dir (CAMPUS_MEDIA_DIR), mounted at the same path.",
                    ["path": resolved, "kept": keptPath]))
        }
        guard keptPath == resolved else {
            throw Mismatch(
                phrase: Phrase(
                    "The shared media directory is at {path} here but at {kept} on this database's other instances: mount it at the same path on every instance (the catalogue keeps files' full paths).",
                    ["path": resolved, "kept": keptPath]))
        }
    }

    private static func read(_ marker: URL) -> String? {
        guard let data = try? Data(contentsOf: marker) else { return nil }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? nil : text
    }

    /// Written under a name of its own and renamed, so that nobody reads half of it.
    private static func write(_ name: String, to marker: URL) throws {
        let partial = marker.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).part")
        try Data((name + "\n").utf8).write(to: partial)
        guard rename(partial.path, marker.path) == 0 else {
            try? FileManager.default.removeItem(at: partial)
            throw CocoaError(.fileWriteUnknown)
        }
    }
}
