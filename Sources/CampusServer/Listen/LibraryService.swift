import Accounts
import Formats
import Foundation
import InputRules
import Listen
import Localization
import Logging
import Storage

/// The catalogue's library, as admins keep it: folders scanned, podcasts imported, files
/// uploaded (staged, recovered after a crash), covers, uploaded images and the pictures of
/// authors and genres.
struct LibraryService: Sendable {
    let database: Database
    let mediaDirectory: String
    let outbound: OutboundSettings
    let catalogue: CatalogueService
    /// Who is told of a liked podcast's new episodes.
    var notices: ListenNotices?
    let now: @Sendable () -> Date
    let logger: Logger
}

/// The library admins fill: scans, podcast imports, uploads, covers.
extension LibraryService {
    // MARK: Library

    /// Scans a folder; an admin's scan (`actor`) leaves its entry in the audit log.
    func scan(_ folder: String, by actor: AuditActor?) async throws -> LibraryScanSummary {
        do {
            return try await LibraryScanner(
                database: database, mediaDirectory: mediaDirectory, logger: logger, now: now, actor: actor
            )
            .scan(folder)
        } catch let error as LibraryScanner.NotAFolder {
            throw Refusal.invalid(
                FieldProblem(field: "folder", detail: "{path} is not a folder Campus can read.", ["path": error.path]))
        }
    }

    /// Imports the podcast at `source` (`refreshing`: the periodic refresh, which keeps the cover
    /// it has; see ``Podcasts/add(_:allowFiles:keepingCover:)``); an admin's import (`actor`)
    /// leaves its entry in the audit log.
    func importPodcast(_ source: String, refreshing: Bool = false, by actor: AuditActor?) async throws
        -> PodcastImportSummary
    {
        do {
            var podcasts = Podcasts(
                database: database, mediaDirectory: mediaDirectory, logger: logger, now: now,
                allowPrivateAddresses: outbound.allowPrivateAddresses, deadline: outbound.deadline)
            podcasts.notices = notices
            podcasts.actor = actor
            return try await podcasts.add(source, keepingCover: refreshing)
        } catch let error as Podcasts.Failed {
            throw Refusal.invalid(FieldProblem(field: "url", error.phrase))
        }
    }

    /// The longest upload.
    static let uploadLimit = 200 << 20

    /// Keeps an uploaded file in `uploads/FOLDER/NAME` of the media directory and reads it into
    /// the catalogue (scanning the uploads folder, which leaves everything else as it is).
    func upload<Bytes: AsyncSequence & Sendable>(_ body: Bytes, name: String, folder: String?, for user: Account)
        async throws -> CatalogueService.MediaView where Bytes.Element == ArraySlice<UInt8>
    {
        let name = name.trimmingCharacters(in: .whitespaces)
        let ext = (name as NSString).pathExtension.lowercased()
        guard !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."), !name.containsControlCharacters,
            name.utf8.count <= 200, ScannedAudio.extensions[ext] != nil
        else {
            throw Refusal.invalid(
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
            throw Refusal.invalid(
                FieldProblem(
                    field: "folder",
                    detail:
                        "Folders are up to 10 names of up to 100 bytes, separated by /, not starting with a dot, without backslashes or control characters."
                ))
        }
        let uploads = URL(fileURLWithPath: mediaDirectory).appendingPathComponent("uploads")
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
                guard written <= Self.uploadLimit else { throw Refusal.tooLarge(limit: Self.uploadLimit) }
                try handle.write(contentsOf: chunk)
            }
            guard written > 0 else { throw Refusal.invalid(FieldProblem(field: "body", detail: "The file is empty.")) }
            // On disk before it has its name, and named in one step that replaces an earlier file of
            // that name: a crash leaves the old file or the new one whole, never a part of either.
            try handle.synchronize()
            try handle.close()
            guard rename(partial.path, target.path) == 0 else {
                throw ExternalTool.Failed(detail: "Cannot write in {path}.", ["path": directory.path])
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: partial)
            throw error
        }
        Self.sweepStagingFiles(in: uploads, now: Date())
        let summary = try await scan(uploads.path, by: nil)
        let path = target.standardizedFileURL.resolvingSymlinksInPath().path
        let now = now()
        let size = written
        guard
            let id = try await database.write({ db -> Int64? in
                guard let id = try await ListenStore(db).mediaID(path: path) else { return nil }
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .mediaUploaded, actor: AuditActor(user),
                        target: AuditTarget(kind: "media", id: id, label: path), after: "\(size) bytes"))
                return id
            })
        else {
            try? FileManager.default.removeItem(at: target)
            guard let failure = summary.failed.first else {
                throw Refusal.invalid(
                    FieldProblem(field: "body", detail: "ffprobe cannot read it as audio: no audio stream."))
            }
            throw Refusal.invalid(
                FieldProblem(
                    field: "body",
                    Phrase("ffprobe cannot read it as audio: {reason}", parts: ["reason": failure.reason])))
        }
        return try await catalogue.media(id, for: user)
    }

    /// Brings the catalogue up to date with the uploads folder once at start: a server killed
    /// after an upload's file got its name but before the catalogue read it (the file is whole,
    /// its item still describes the file it replaced) is mended at the next start, and staging
    /// files of uploads that never finished are removed.
    func recoverUploads() async {
        let uploads = URL(fileURLWithPath: mediaDirectory).appendingPathComponent("uploads")
        guard FileManager.default.fileExists(atPath: uploads.path) else { return }
        // Files' times are the system's clock, not the service's (a test's clock stands still).
        Self.sweepStagingFiles(in: uploads, now: Date())
        do {
            _ = try await scan(uploads.path, by: nil)  // the scanner logs what it found
        } catch  where !Task.isCancelled {
            logger.warning("uploads not caught up", metadata: ["error": "\(ErrorLog.text(error))"])
        } catch {
            // Stopping before it was done: the next start catches up.
        }
    }

    /// How long an upload's staging file may go unwritten before it counts as left by a crash:
    /// far beyond the connection's idle timeout, which ends any upload that stops sending.
    static let stagingLifetime: TimeInterval = 600

    /// Removes the hidden `.UUID.part` files of uploads that ended without finishing (the server
    /// was killed while a file arrived) once nothing has written them for ``stagingLifetime``.
    /// The scanner never reads hidden files, so they cost only disk until then.
    static func sweepStagingFiles(in uploads: URL, now: Date) {
        guard
            let files = FileManager.default.enumerator(
                at: uploads, includingPropertiesForKeys: [.contentModificationDateKey])
        else { return }
        for case let file as URL in files
        where file.lastPathComponent.hasPrefix(".") && file.pathExtension == "part" {
            let modified = (try? file.resourceValues(forKeys: [.contentModificationDateKey]))?.contentModificationDate
            if let modified, now.timeIntervalSince(modified) > stagingLifetime {
                try? FileManager.default.removeItem(at: file)
            }
        }
    }

    /// The cover file of a parent in a size, if it has one.
    func coverPath(_ parentID: Int64, size: ImageSize) async throws -> String {
        guard try await database.read({ db in try await ListenStore(db).cover(parentID: parentID) }) != nil else {
            throw Refusal.notFound("There is no cover for {id}.", ["id": String(parentID)])
        }
        let path = URL(fileURLWithPath: mediaDirectory).appendingPathComponent("covers")
            .appendingPathComponent(LibraryScanner.coverName(parentID: parentID, size: size)).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Refusal.notFound("There is no cover for {id}.", ["id": String(parentID)])
        }
        return path
    }
}
