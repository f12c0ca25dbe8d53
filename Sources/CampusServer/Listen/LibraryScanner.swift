import Accounts
import Formats
import Foundation
import Listen
import Localization
import Logging
import NIOPosix
import SharedHelpers
import Storage

/// What a scan did.
public struct LibraryScanSummary: Sendable, Equatable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0
    public var removed = 0
    /// Files that could not be read, with the reason.
    public var failed: [Failure] = []

    /// A file that could not be read: its path in the folder, and why.
    public struct Failure: Sendable, Equatable {
        public var file: String
        public var reason: Phrase

        /// `file: reason`, the reason as `say` says it (a ``Translator``, or English).
        public func said(_ say: (Phrase) -> String = { $0.text }) -> String { "\(file): \(say(reason))" }
    }

    public var description: String {
        var text = "\(added) added, \(updated) updated, \(unchanged) unchanged, \(removed) removed"
        if !failed.isEmpty { text += ", \(failed.count) not readable" }
        return text
    }
}

/// Reads a folder of audio files into the catalogue with ffprobe: tags, duration, cover art.
/// Scanning again updates changed files, removes files that are gone and keeps the ids of the
/// rest (a file is known by its path, a parent by its kind, album artist and album, or folder).
public struct LibraryScanner: Sendable {
    let database: Database
    /// Where cover images are kept (`covers/` in the media directory).
    let coversDirectory: String
    let logger: Logger
    let now: @Sendable () -> Date
    /// Who scans, for the audit log (an entry in the scan's transaction); nil for the server's own
    /// scans (the library folder at start, the demo's media).
    let actor: AuditActor?

    public init(
        database: Database, mediaDirectory: String, logger: Logger, now: @escaping @Sendable () -> Date = { Date() },
        actor: AuditActor? = nil
    ) {
        self.database = database
        self.coversDirectory = URL(fileURLWithPath: mediaDirectory).appendingPathComponent("covers").path
        self.logger = logger
        self.now = now
        self.actor = actor
    }

    /// The most files one scan reads.
    public static let fileLimit = 100_000

    struct Found: Sendable {
        var path: String
        var relativePath: String
        var size: Int64
        var modified: Int64
    }

    struct Probed: Sendable {
        var found: Found
        var audio: ScannedAudio
    }

    public struct NotAFolder: Error, CustomStringConvertible {
        public var path: String
        public var description: String { "\(path) is not a folder Campus can read." }
    }

    /// Why a file could not be read, in words a translation can look up (the file is named
    /// beside it, not again inside).
    static func reason(_ error: any Error) -> Phrase {
        (error as? ImportError)?.reason ?? phrase(of: error)
    }

    /// Scans `folder` and everything in it.
    public func scan(_ folder: String) async throws -> LibraryScanSummary {
        let root = URL(fileURLWithPath: folder).standardizedFileURL.resolvingSymlinksInPath().path
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: root, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw NotAFolder(path: folder)
        }
        let files = try findFiles(root)
        let prefix = root.hasSuffix("/") ? root : root + "/"
        let known = try await database.read { db in try await ListenStore(db).libraryFiles(under: prefix) }
        var summary = LibraryScanSummary()
        var probed: [Probed] = []
        for file in files {
            if let previous = known[file.path], previous.size == file.size, previous.modified == file.modified {
                summary.unchanged += 1
                continue
            }
            do {
                let json = try await ExternalTool.ffprobe.run([
                    "-v", "error", "-protocol_whitelist", "file", "-print_format", "json", "-show_format",
                    "-show_streams", ExternalTool.fileInput(file.path),
                ])
                let probe = try AudioProbe(json: json, file: file.relativePath)
                let audio = ScannedAudio(relativePath: file.relativePath, probe: probe)
                try audio.checkLimits()
                probed.append(Probed(found: file, audio: audio))
                if known[file.path] == nil { summary.added += 1 } else { summary.updated += 1 }
            } catch {
                summary.failed.append(LibraryScanSummary.Failure(file: file.relativePath, reason: Self.reason(error)))
                logger.warning(
                    "Cannot read a library file",
                    metadata: ["file": "\(file.path)", "error": "\(ErrorLog.text(error))"])
            }
        }
        let seen = Set(files.map(\.path))
        let gone = known.filter { !seen.contains($0.key) }.map(\.value.mediaID)
        summary.removed = gone.count
        let now = now()
        let scannedRoot = root
        let probedFiles = probed
        let scanned = summary
        let (covers, droppedCovers) = try await database.write { db in
            let store = ListenStore(db)
            var covers: [Int64: Probed] = [:]
            for item in probedFiles {
                let audio = item.audio
                var parentAuthorID: Int64?
                var authorID: Int64?
                var genreID: Int64?
                if let name = audio.parentAuthor { parentAuthorID = try await store.authorID(named: name) }
                if let name = audio.author { authorID = try await store.authorID(named: name) }
                if let name = audio.genre { genreID = try await store.genreID(named: name) }
                let parentID = try await store.saveParent(
                    source: Self.parentSource(audio, path: item.found.relativePath, root: scannedRoot),
                    ParentDraft(
                        kind: audio.kind.parent, title: audio.parentTitle, authorID: parentAuthorID, genreID: genreID,
                        year: audio.year),
                    now: now)
                _ = try await store.saveMedia(
                    MediaDraft(
                        kind: audio.kind, parentID: parentID, title: audio.title, authorID: authorID, genreID: genreID,
                        disc: audio.disc, number: audio.number, duration: audio.duration,
                        isExplicit: audio.isExplicit, description: audio.description, publishedAt: audio.publishedAt,
                        path: item.found.path, url: nil, guid: nil, size: item.found.size,
                        modified: item.found.modified, contentType: audio.contentType, bitrate: audio.bitrate),
                    now: now)
                if covers[parentID] == nil { covers[parentID] = item }
            }
            try await store.deleteMedia(ids: gone)
            let dropped = try await store.dropEmptyParents()
            try await store.dropUnusedNames()
            if let actor {
                try await AuditStore(db).record(
                    AuditEntry(
                        at: now, action: .libraryScanned, actor: actor,
                        target: AuditTarget(kind: "folder", id: nil, label: scannedRoot),
                        after: scanned.description))
            }
            return (covers, dropped)
        }
        for cover in droppedCovers { removeCover(cover) }
        for (parentID, item) in covers {
            await saveCover(parentID: parentID, from: item)
        }
        logger.notice("Library scanned", metadata: ["folder": "\(root)", "summary": "\(summary.description)"])
        return summary
    }

    /// How a parent is found again: by kind, album artist and album tag when the files have an
    /// album tag, otherwise by the folder they are in.
    static func parentSource(_ audio: ScannedAudio, path: String, root: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        let hasAlbumTag = audio.parentTitle != (folder as NSString).lastPathComponent
        if hasAlbumTag {
            return
                "library:\(audio.kind.parent.rawValue):\((audio.parentAuthor ?? "").lowercased())|\(audio.parentTitle.lowercased())"
        }
        return "library:\(audio.kind.parent.rawValue):folder:\(root)/\(folder)"
    }

    /// The audio files under `root`, skipping hidden files and folders.
    func findFiles(_ root: String) throws -> [Found] {
        let rootURL = URL(fileURLWithPath: root)
        guard
            let enumerator = FileManager.default.enumerator(
                at: rootURL,
                includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey],
                options: [.skipsHiddenFiles])
        else { throw NotAFolder(path: root) }
        var found: [Found] = []
        for case let url as URL in enumerator {
            guard ScannedAudio.extensions[url.pathExtension.lowercased()] != nil else { continue }
            let values = try url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey, .contentModificationDateKey])
            guard values.isRegularFile == true else { continue }
            let path = url.standardizedFileURL.path
            guard path.hasPrefix(root + "/") else { continue }
            found.append(
                Found(
                    path: path, relativePath: String(path.dropFirst(root.count + 1)),
                    size: Int64(values.fileSize ?? 0),
                    modified: Int64(
                        ((values.contentModificationDate ?? .distantPast).timeIntervalSince1970 * 1000).rounded(.down))
                ))
            if found.count >= Self.fileLimit { break }
        }
        return found.sorted { $0.path < $1.path }
    }

    // MARK: Covers

    /// The cover file of a parent in a size: `<parent>-<size>.jpg` in the covers folder.
    static func coverName(parentID: Int64, size: ImageSize) -> String { "\(parentID)-\(size.rawValue).jpg" }

    func coverPath(_ name: String) -> String { URL(fileURLWithPath: coversDirectory).appendingPathComponent(name).path }

    /// Makes the parent's cover in every size from the file's picture, or a cover/folder image
    /// next to it; records it, or records none.
    func saveCover(parentID: Int64, from item: Probed) async {
        let folder = (item.found.path as NSString).deletingLastPathComponent
        let pictures = ["cover.jpg", "cover.png", "folder.jpg", "folder.png", "front.jpg", "front.png"]
        let source: String? =
            item.audio.hasCoverArt
            ? item.found.path
            : pictures.map { "\(folder)/\($0)" }.first { FileManager.default.fileExists(atPath: $0) }
        await saveCover(parentID: parentID, from: source)
    }

    /// Makes the parent's cover in every size from a local file: a picture (`isImage`, read by
    /// ffmpeg's image demuxer only) or an audio file's picture; records it, or records none.
    /// ffmpeg may open nothing but that file (no URLs, no playlists naming other files).
    func saveCover(parentID: Int64, from source: String?, isImage: Bool = false) async {
        var saved: String?
        if let source {
            do {
                try FileManager.default.createDirectory(atPath: coversDirectory, withIntermediateDirectories: true)
                for size in ImageSize.allCases {
                    let scale = size.pixels.map {
                        "scale='min(\($0),iw)':'min(\($0),ih)':force_original_aspect_ratio=decrease"
                    }
                    var arguments = ["-v", "error", "-y", "-protocol_whitelist", "file"]
                    if isImage { arguments += ["-f", "image2pipe"] }
                    arguments += ["-i", ExternalTool.fileInput(source), "-an", "-frames:v", "1"]
                    if let scale { arguments += ["-vf", scale] }
                    // Made under a name of its own and renamed: an instance serving the cover from the
                    // shared media directory meanwhile reads the old file or the new one, whole.
                    let target = coverPath(Self.coverName(parentID: parentID, size: size))
                    let partial = coverPath(".\(UUID().uuidString).jpg")
                    arguments += ["-q:v", "3", "-f", "image2", partial]
                    do {
                        _ = try await ExternalTool.ffmpeg.run(arguments)
                        guard rename(partial, target) == 0 else { throw CocoaError(.fileWriteUnknown) }
                    } catch {
                        try? FileManager.default.removeItem(atPath: partial)
                        throw error
                    }
                }
                saved = Self.coverName(parentID: parentID, size: .original)
            } catch {
                logger.warning(
                    "Cannot make a cover", metadata: ["file": "\(source)", "error": "\(ErrorLog.text(error))"])
            }
        }
        let cover = saved
        do {
            try await database.write { db in try await ListenStore(db).setCover(parentID: parentID, cover) }
        } catch {
            logger.warning(
                "Cannot record a cover", metadata: ["parent": "\(parentID)", "error": "\(ErrorLog.text(error))"])
        }
    }

    func removeCover(_ name: String) {
        guard let id = Int64(name.split(separator: "-").first ?? "") else { return }
        for size in ImageSize.allCases {
            try? FileManager.default.removeItem(atPath: coverPath(Self.coverName(parentID: id, size: size)))
        }
    }
}
