import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Listen
import Localization
import MultipartKit
import NIOCore
import Storage

/// The media library, for admins: scanning a folder, importing a podcast, uploading a file, the
/// blocks of the home feed, and the pictures of authors and genres.
struct LibraryPages: Sendable {
    let catalogue: CatalogueService
    let feed: FeedService
    let library: LibraryService

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.listenLibrary) { request, account in
            try Self.requireAdmin(account)
            return try await library(request.t)
        }
        pages.form(SiteRoutes.libraryScan, LibraryForm.self, scan)
        pages.form(SiteRoutes.libraryPodcast, LibraryForm.self, addPodcast)
        pages.upload(SiteRoutes.libraryUpload, UploadForm.self, bodyLimit: BodyLimits.mediaUploadForm, upload)
        pages.upload(SiteRoutes.libraryFeed, FeedForm.self, bodyLimit: BodyLimits.libraryImageForm, changeFeed)
        pages.upload(SiteRoutes.libraryPicture, PictureForm.self, bodyLimit: BodyLimits.libraryImageForm, setPicture)
    }

    static func requireAdmin(_ account: Authenticated) throws {
        guard account.user.role == .admin else { throw Refusal.notAllowed("Only admins manage the media library.") }
    }

    /// Back to the library with what went wrong.
    private static func refused(_ refusal: Refusal, _ request: PageRequest) -> PageAnswer {
        .redirect(SiteRoutes.listenLibrary.path, flash: request.t.detail(refusal), kind: .error)
    }

    func library(_ t: Translator) async throws -> PageAnswer {
        let count = try await catalogue.mediaCount()
        let (configured, blocks) = try await feed.feedBlocks()
        return .page(
            LibraryPage(
                count: count, configured: configured,
                blocks: blocks.enumerated().map { index, block in
                    .init(
                        index: index, type: block.type.rawValue,
                        title: configured ? block.title : HomeFeed.defaultTitle(block.title, t) ?? block.title,
                        source: block.source, limit: block.limit,
                        highlight: block.highlight.map { configured ? $0 : HomeFeed.defaultTitle($0, t) ?? $0 },
                        link: block.link,
                        description: block.description.map { configured ? $0 : HomeFeed.defaultTitle($0, t) ?? $0 },
                        image: block.imageID.map { APIRoutes.libraryImage.path($0) }, titleLink: block.titleLink,
                        first: index == 0, last: index == blocks.count - 1)
                },
                types: FeedBlockConfiguration.BlockType.allCases.map {
                    .init(value: $0.rawValue, name: LibraryPage.typeName($0, t))
                }))
    }

    struct LibraryForm: PageForm {
        var _csrf: String?
        var folder: String?
        var url: String?
    }

    @Sendable func scan(_ request: PageRequest, _ account: Authenticated, _ form: LibraryForm) async throws
        -> PageAnswer
    {
        try Self.requireAdmin(account)
        do {
            let summary = try await library.scan(String((form.folder ?? "").prefix(1000)), by: AuditActor(account.user))
            let values = [
                "added": String(summary.added), "updated": String(summary.updated),
                "unchanged": String(summary.unchanged), "removed": String(summary.removed),
                "failed": String(summary.failed.count),
            ]
            let flash =
                summary.failed.isEmpty
                ? request.t(
                    "Scanned: {added} added, {updated} updated, {unchanged} unchanged, {removed} removed.", values)
                : request.t(
                    "Scanned: {added} added, {updated} updated, {unchanged} unchanged, {removed} removed, {failed} not readable.",
                    values)
            return .redirect(SiteRoutes.listenLibrary.path, flash: flash)
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return Self.refused(refusal, request)
        }
    }

    @Sendable func addPodcast(_ request: PageRequest, _ account: Authenticated, _ form: LibraryForm) async throws
        -> PageAnswer
    {
        try Self.requireAdmin(account)
        let url = (form.url ?? "").trimmingCharacters(in: .whitespaces)
        guard url.hasPrefix("http://") || url.hasPrefix("https://"), url.count <= 2000 else {
            return .redirect(
                SiteRoutes.listenLibrary.path, flash: request.t("Give the feed's http(s) address."), kind: .error)
        }
        do {
            let summary = try await library.importPodcast(url, by: AuditActor(account.user))
            var values = ["title": summary.title, "added": String(summary.added), "updated": String(summary.updated)]
            guard let first = summary.skipped.first else {
                return .redirect(
                    SiteRoutes.parent(.podcast).path(summary.podcastID),
                    flash: request.t("Imported “{title}”: new episodes: {added}, updated: {updated}.", values))
            }
            values["skipped"] = String(summary.skipped.count)
            values["reason"] = request.t(first)
            return .redirect(
                SiteRoutes.parent(.podcast).path(summary.podcastID),
                flash: request.t(
                    "Imported “{title}”: new episodes: {added}, updated: {updated}, left out: {skipped}. {reason}",
                    values))
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return Self.refused(refusal, request)
        }
    }

    struct UploadForm: PageForm {
        var _csrf: String?
        var folder: String?
        var file: UploadedFile?
    }

    /// A file field of a multipart form, with its part's headers (for the file name).
    struct UploadedFile: Decodable, Sendable, MultipartPartConvertible {
        var part: MultipartPart
        var multipart: MultipartPart? { part }
        init?(multipart: MultipartPart) { part = multipart }
        init(from decoder: any Decoder) throws {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "Not a file."))
        }
    }

    @Sendable func upload(_ request: PageRequest, _ account: Authenticated, _ form: UploadForm) async throws
        -> PageAnswer
    {
        try Self.requireAdmin(account)
        guard let part = form.file?.part, part.body.readableBytes > 0,
            let name = MultipartForm.fileName(contentDisposition: part.headers.first(name: "Content-Disposition"))
        else {
            return .redirect(
                SiteRoutes.listenLibrary.path, flash: request.t("Choose an audio file first."), kind: .error)
        }
        do {
            let bytes = [UInt8](buffer: part.body)
            let view = try await library.upload(
                [bytes[...]].async, name: name, folder: form.folder.flatMap { $0.isEmpty ? nil : $0 },
                for: account.user)
            return .redirect(view.api.url, flash: request.t("“{title}” is in the library.", ["title": view.item.title]))
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return Self.refused(refusal, request)
        }
    }

    struct FeedForm: PageForm {
        var _csrf: String?
        var action: String
        var index: Int?
        var type: String?
        var title: String?
        var source: String?
        var limit: Int?
        var highlight: String?
        var link: String?
        var description: String?
        var titleLink: String?
        var image: UploadedFile?
    }

    /// Adds, removes or moves one block of the home feed, or returns to the default feed.
    @Sendable func changeFeed(_ request: PageRequest, _ account: Authenticated, _ form: FeedForm) async throws
        -> PageAnswer
    {
        try Self.requireAdmin(account)
        var blocks = try await feed.feedBlocks().blocks
        let index = form.index ?? -1
        switch form.action {
        case "reset": blocks = []
        case "add":
            var imageID: Int64?
            do {
                // The block's image (a background, an ad's banner) is kept first; an image no
                // block came to show is removed after a day.
                imageID = try await keep(form.image, by: account.user)
            } catch let refusal as Refusal where refusal.reason == .invalid {
                return Self.refused(refusal, request)
            }
            blocks.append(
                FeedBlockConfiguration(
                    type: form.type.flatMap(FeedBlockConfiguration.BlockType.init(rawValue:)) ?? .listSquare,
                    title: form.title ?? "", highlight: form.highlight, source: form.source ?? "",
                    limit: form.limit ?? 8, link: form.link.flatMap { $0.isEmpty ? nil : $0 },
                    description: form.description, imageID: imageID, titleLink: form.titleLink))
        case "remove" where blocks.indices.contains(index): blocks.remove(at: index)
        case "up" where index > 0 && blocks.indices.contains(index): blocks.swapAt(index, index - 1)
        case "down" where blocks.indices.contains(index + 1) && index >= 0: blocks.swapAt(index, index + 1)
        default: throw Refusal.malformed("Unknown feed action.")
        }
        do {
            _ = try await feed.saveFeedBlocks(blocks, by: account.user)
        } catch let refusal as Refusal where refusal.reason == .invalid {
            return Self.refused(refusal, request)
        }
        return .redirect(SiteRoutes.listenLibrary.path, flash: request.t("The home feed is changed."))
    }

    struct PictureForm: PageForm {
        var _csrf: String?
        /// `author:5` or `genre:3`.
        var owner: String?
        var image: UploadedFile?
    }

    /// Sets the picture of an author or a genre from an uploaded image, or clears it when no
    /// file comes.
    @Sendable func setPicture(_ request: PageRequest, _ account: Authenticated, _ form: PictureForm) async throws
        -> PageAnswer
    {
        try Self.requireAdmin(account)
        let text = (form.owner ?? "").trimmingCharacters(in: .whitespaces)
        guard let owner = LibraryService.PictureOwner(text) else {
            return .redirect(
                SiteRoutes.listenLibrary.path, flash: request.t("Name an author or a genre: author:5 or genre:3."),
                kind: .error)
        }
        do {
            let imageID = try await keep(form.image, by: account.user)
            try await library.setPicture(of: owner, imageID: imageID, by: account.user)
            return .redirect(
                SiteRoutes.listenLibrary.path,
                flash: imageID == nil ? request.t("The picture is removed.") : request.t("The picture is set."))
        } catch let refusal as Refusal where [.invalid, .notFound].contains(refusal.reason) {
            return Self.refused(refusal, request)
        }
    }

    /// Keeps an image a form uploaded (for a block or a picture); nil when no file came.
    private func keep(_ file: UploadedFile?, by user: Account) async throws -> Int64? {
        guard let part = file?.part, part.body.readableBytes > 0 else { return nil }
        return try await library.addLibraryImage(
            contentType: part.headers.first(name: "Content-Type") ?? "application/octet-stream",
            data: [UInt8](buffer: part.body), by: user)
    }
}
