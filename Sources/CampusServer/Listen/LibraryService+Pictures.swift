import Accounts
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// Uploaded images (for feed blocks and pictures) and the pictures of authors and genres, which
/// admins choose.
extension LibraryService {
    /// Keeps an image for a block or a picture (admins): a PNG, JPEG or WebP image of at most 2 MiB.
    func addLibraryImage(contentType: String, data: [UInt8], by user: Account) async throws -> Int64 {
        // An image may become a block's or an author's or genre's picture: the library's, not the feed's.
        guard user.role == .admin else { throw Refusal.notAllowed("Only admins manage the media library.") }
        guard data.count <= BodyLimits.libraryImage else { throw Refusal.tooLarge(limit: BodyLimits.libraryImage) }
        let kind = try ImageKind.of(
            data, sentAs: contentType, field: "image",
            notAnImage: Phrase("An image must be a PNG, JPEG or WebP image."))
        return try await database.write { db in
            try await ListenStore(db).addLibraryImage(contentType: kind.mediaType, data: data, now: now())
        }
    }

    func libraryImage(_ id: Int64) async throws -> StoredImage {
        guard let image = try await database.read({ db in try await ListenStore(db).libraryImage(id: id) }) else {
            throw Refusal.notFound("There is no image {id}.", ["id": String(id)])
        }
        return image
    }

    /// What a picture is chosen for.
    enum PictureOwner: Sendable {
        case author(Int64)
        case genre(Int64)

        /// An owner as the library page's form names it, `author:5` or `genre:3` (as a feed
        /// block names its source).
        init?(_ text: String) {
            switch FeedBlockConfiguration.Source(text) {
            case .author(let id): self = .author(id)
            case .genre(let id): self = .genre(id)
            default: return nil
            }
        }
    }

    /// Sets (or, with nil, clears) the picture of an author or a genre (admins): 404 for an
    /// author or genre that is not there, 422 for an image that is not.
    func setPicture(of owner: PictureOwner, imageID: Int64?, by user: Account) async throws {
        guard user.role == .admin else { throw Refusal.notAllowed("Only admins manage the media library.") }
        try await database.write { db in
            let store = ListenStore(db)
            if let imageID, !(try await store.libraryImageExists(id: imageID)) {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "imageId", detail: "There is no uploaded image {id}.", ["id": String(imageID)]))
            }
            switch owner {
            case .author(let id):
                guard try await store.author(id: id) != nil else {
                    throw Refusal.notFound("There is no author {id}.", ["id": String(id)])
                }
                try await store.setPicture(authorID: id, imageID: imageID)
            case .genre(let id):
                guard try await store.genre(id: id) != nil else {
                    throw Refusal.notFound("There is no genre {id}.", ["id": String(id)])
                }
                try await store.setPicture(genreID: id, imageID: imageID)
            }
            // Feeds show the pictures: their version changes with them.
            try await store.feedChanged(now: now())
            try await store.dropUnusedImages(now: now())
        }
    }
}
