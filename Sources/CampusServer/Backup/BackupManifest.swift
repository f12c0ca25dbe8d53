import Crypto
import Foundation
import InputRules

/// What a backup holds, written last (`manifest.json`): a folder without it, or whose files do
/// not match it, is no backup, and `campus restore` refuses it. A backup killed half-way has no
/// manifest.
public struct BackupManifest: Codable, Sendable, Equatable {
    /// One file of the backup, by its path inside the backup folder.
    public struct File: Codable, Sendable, Equatable {
        public var path: String
        public var size: Int64
        public var sha256: String
    }

    public static let fileName = "manifest.json"
    public static let currentFormat = 1

    public var format: Int
    public var made: Date
    /// `sqlite` or `postgres`: a backup is restored into the same kind of database.
    public var database: String
    /// The migration step the database was at; a newer one than this build knows is refused.
    public var schemaVersion: Int
    /// The media directory's path when the backup was made: the catalogue keeps files' full
    /// paths, so media restored elsewhere must be mounted there again.
    public var mediaDirectory: String
    public var files: [File]

    public var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// Reads the manifest of `folder` and checks every file it names against its size and
    /// SHA-256; a folder without one, or any file missing, changed or outside the folder, is
    /// refused.
    public static func verified(_ folder: URL) throws -> BackupManifest {
        let url = folder.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: folder.path) else {
            throw Refusal.notFound("There is no backup at {path}.", ["path": folder.path])
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Refusal.malformed(
                "{path} is no complete backup: it has no manifest.json (a backup stopped half-way has none).",
                ["path": folder.path])
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let manifest = try? decoder.decode(BackupManifest.self, from: data),
            manifest.format == currentFormat
        else {
            throw Refusal.malformed("The manifest of {path} cannot be read.", ["path": folder.path])
        }
        for file in manifest.files {
            guard BackupFiles.isInside(file.path) else {
                throw Refusal.malformed("The manifest names a file outside the backup: {file}.", ["file": file.path])
            }
            let found = folder.appendingPathComponent(file.path)
            guard let (size, sum) = try? BackupFiles.checksum(found), size == file.size, sum == file.sha256 else {
                throw Refusal.malformed(
                    "{file} of the backup is missing or differs from its checksum: the backup is damaged.",
                    ["file": file.path])
            }
        }
        return manifest
    }

    /// Writes the manifest so that it appears whole or not at all (a temporary name, synced,
    /// then renamed).
    func write(into folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try BackupFiles.writeWhole(try encoder.encode(self), to: folder.appendingPathComponent(Self.fileName))
    }
}

/// Copying, checksumming and writing the files of a backup.
enum BackupFiles {
    static let chunk = 1 << 20

    /// A relative path that stays inside its folder.
    static func isInside(_ path: String) -> Bool {
        !path.isEmpty && !path.hasPrefix("/") && !path.split(separator: "/").contains("..")
    }

    /// The size and SHA-256 (hex) of a file, read a mebibyte at a time.
    static func checksum(_ url: URL) throws -> (Int64, String) {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hash = SHA256()
        var size: Int64 = 0
        while let data = try handle.read(upToCount: chunk), !data.isEmpty {
            hash.update(data: data)
            size += Int64(data.count)
        }
        return (size, hash.finalize().map { String(format: "%02x", $0) }.joined())
    }

    /// Copies a file, hashing what it writes, and syncs the copy to disk.
    static func copy(_ source: URL, to destination: URL) throws -> (Int64, String) {
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard FileManager.default.createFile(atPath: destination.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: destination.path])
        }
        let input = try FileHandle(forReadingFrom: source)
        defer { try? input.close() }
        let output = try FileHandle(forWritingTo: destination)
        defer { try? output.close() }
        var hash = SHA256()
        var size: Int64 = 0
        while let data = try input.read(upToCount: chunk), !data.isEmpty {
            hash.update(data: data)
            try output.write(contentsOf: data)
            size += Int64(data.count)
        }
        try output.synchronize()
        return (size, hash.finalize().map { String(format: "%02x", $0) }.joined())
    }

    static func writeWhole(_ data: Data, to url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: temporary.path, contents: data) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
        }
        let handle = try FileHandle(forWritingTo: temporary)
        try handle.synchronize()
        try handle.close()
        // rename(2): atomic, and unlike FileManager's moves it replaces a file already there.
        guard rename(temporary.path, url.path) == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// The files of a folder, relative to it, sorted; hidden files (files being written, whose
    /// names start with a dot) are left out.
    static func files(in folder: URL) -> [String] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: folder, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        let base = folder.standardizedFileURL.path
        var found: [String] = []
        for case let url as URL in enumerator {
            guard (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(base + "/") else { continue }
            found.append(String(path.dropFirst(base.count + 1)))
        }
        return found.sorted()
    }
}
