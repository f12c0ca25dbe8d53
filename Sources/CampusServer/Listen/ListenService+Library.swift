import Accounts
import CampusHTTP
import Formats
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// The library admins fill: scans, podcast imports, uploads, covers.
extension ListenService {
    // MARK: Library

    func scan(_ folder: String) async throws -> LibraryScanSummary {
        do {
            return try await LibraryScanner(database: database, dataDirectory: dataDirectory, logger: logger, now: now)
                .scan(folder)
        } catch let error as LibraryScanner.NotAFolder {
            throw Problem.invalid(
                FieldProblem(field: "folder", detail: "{path} is not a folder Campus can read.", ["path": error.path]))
        }
    }

    func importPodcast(_ source: String) async throws -> PodcastImportSummary {
        do {
            return try await Podcasts(
                database: database, dataDirectory: dataDirectory, logger: logger, now: now,
                allowPrivateAddresses: outbound.allowPrivateAddresses, deadline: outbound.deadline
            ).add(source)
        } catch let error as Podcasts.Failed {
            throw Problem.invalid(FieldProblem(field: "url", error.phrase))
        }
    }

    /// The longest upload.
    static let uploadLimit = 200 << 20

    /// Keeps an uploaded file in `uploads/FOLDER/NAME` of the data directory and reads it into
    /// the catalogue (scanning the uploads folder, which leaves everything else as it is).
    func upload<Bytes: AsyncSequence & Sendable>(_ body: Bytes, name: String, folder: String?, for user: UserRecord)
        async throws -> MediaView where Bytes.Element == ArraySlice<UInt8>
    {
        let name = name.trimmingCharacters(in: .whitespaces)
        let ext = (name as NSString).pathExtension.lowercased()
        guard !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."), !name.containsControlCharacters,
            name.utf8.count <= 200, ScannedAudio.extensions[ext] != nil
        else {
            throw Problem.invalid(
                FieldProblem(
                    field: "name",
                    detail:
                        "Name an audio file: mp3, m4a, m4b, aac, ogg, oga, opus, flac, wav or webm, without folders."))
        }
        let parts = (folder ?? "").split(separator: "/").map { $0.trimmingCharacters(in: .whitespaces) }
        guard
            parts.count <= 10,
            parts.allSatisfy({
                !$0.isEmpty && $0.utf8.count <= 100 && $0 != "." && $0 != ".." && !$0.hasPrefix(".")
                    && !$0.contains("\\") && !$0.containsControlCharacters
            })
        else {
            throw Problem.invalid(
                FieldProblem(
                    field: "folder",
                    detail:
                        "Folders are up to 10 names of up to 100 bytes, separated by /, not starting with a dot, without backslashes or control characters."
                ))
        }
        let uploads = URL(fileURLWithPath: dataDirectory).appendingPathComponent("uploads")
        var directory = uploads
        for part in parts { directory.appendPathComponent(part) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let target = directory.appendingPathComponent(name)
        let partial = directory.appendingPathComponent(".\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: partial.path, contents: nil) else {
            throw ExternalTool.Failed(detail: "Cannot write in {path}.", ["path": directory.path])
        }
        let handle = try FileHandle(forWritingTo: partial)
        var written = 0
        do {
            for try await chunk in body {
                written += chunk.count
                guard written <= Self.uploadLimit else { throw Problem.tooLarge(limit: Self.uploadLimit) }
                try handle.write(contentsOf: chunk)
            }
            try handle.close()
            guard written > 0 else { throw Problem.invalid(FieldProblem(field: "body", detail: "The file is empty.")) }
            if FileManager.default.fileExists(atPath: target.path) { try FileManager.default.removeItem(at: target) }
            try FileManager.default.moveItem(at: partial, to: target)
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        let summary = try await scan(uploads.path)
        let path = target.standardizedFileURL.resolvingSymlinksInPath().path
        guard let id = try await database.read({ db in try await ListenStore(db).mediaID(path: path) }) else {
            try? FileManager.default.removeItem(at: target)
            guard let failure = summary.failed.first else {
                throw Problem.invalid(
                    FieldProblem(field: "body", detail: "ffprobe cannot read it as audio: no audio stream."))
            }
            throw Problem.invalid(
                FieldProblem(
                    field: "body",
                    Phrase("ffprobe cannot read it as audio: {reason}", parts: ["reason": failure.reason])))
        }
        return try await media(id, for: user)
    }

    /// The cover file of a parent in a size, if it has one.
    func coverPath(_ parentID: Int64, size: ImageSize) async throws -> String {
        guard try await database.read({ db in try await ListenStore(db).cover(parentID: parentID) }) != nil else {
            throw Problem.notFound("There is no cover for {id}.", ["id": String(parentID)])
        }
        let path = URL(fileURLWithPath: dataDirectory).appendingPathComponent("covers")
            .appendingPathComponent(LibraryScanner.coverName(parentID: parentID, size: size)).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Problem.notFound("There is no cover for {id}.", ["id": String(parentID)])
        }
        return path
    }
}
