import Accounts
import Foundation
import InputRules
import Listen
import Localization
import Storage

/// The home feed as admins configure it (its blocks) and the listening picks (seed 001's
/// "what we listen to").
struct FeedService: Sendable {
    let database: Database
    let now: @Sendable () -> Date
}

/// The blocks of the home feed, which admins configure.
extension FeedService {
    // MARK: The home feed's blocks (admins)

    func feedBlocks() async throws -> (configured: Bool, blocks: [FeedBlockConfiguration]) {
        let blocks = try await database.read { db in try await ListenStore(db).feedBlocks() }
        return (!blocks.isEmpty, blocks.isEmpty ? HomeFeed.defaultBlocks : blocks)
    }

    func saveFeedBlocks(_ blocks: [FeedBlockConfiguration], by user: Account) async throws
        -> (configured: Bool, blocks: [FeedBlockConfiguration])
    {
        guard user.role == .admin else { throw Refusal.notAllowed("Only admins configure the home feed.") }
        guard blocks.count <= FeedBlockConfiguration.blockLimit else {
            throw Refusal.invalid(
                FieldProblem(
                    field: "blocks", detail: "The feed has at most {maximum} blocks.",
                    ["maximum": String(FeedBlockConfiguration.blockLimit)]))
        }
        var checked: [FeedBlockConfiguration] = []
        for (index, block) in blocks.enumerated() {
            do {
                checked.append(try block.validated())
            } catch {
                throw Refusal.invalid(
                    FieldProblem(field: "blocks[\(index)].\(error.field)", error.phrase))
            }
        }
        let saved = checked
        try await database.write { db in
            let store = ListenStore(db)
            for (index, block) in saved.enumerated() {
                switch FeedBlockConfiguration.Source(block.source) {
                case .genre(let id) where try await store.genre(id: id) == nil:
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "blocks[\(index)].source", detail: "There is no genre {id}.", ["id": String(id)]))
                case .author(let id) where try await store.author(id: id) == nil:
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "blocks[\(index)].source", detail: "There is no author {id}.", ["id": String(id)]))
                case .items(let id) where try await store.parent(id: id) == nil:
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "blocks[\(index)].source", detail: "There is no album or podcast {id}.",
                            ["id": String(id)]))
                default: break
                }
                if let image = block.imageID, !(try await store.libraryImageExists(id: image)) {
                    throw Refusal.invalid(
                        FieldProblem(
                            field: "blocks[\(index)].imageId", detail: "There is no uploaded image {id}.",
                            ["id": String(image)]))
                }
            }
            let now = now()
            let before = try await store.feedBlocks()
            try await store.saveFeedBlocks(saved, now: now)
            func text(_ blocks: [FeedBlockConfiguration]) -> String {
                blocks.map { "\($0.type.rawValue) \($0.source)" }.joined(separator: ", ")
            }
            try await AuditStore(db).record(
                AuditEntry(
                    at: now, action: .feedChanged, actor: AuditActor(user),
                    target: AuditTarget(kind: "home-feed", id: nil, label: nil),
                    before: before.isEmpty ? nil : text(before), after: text(saved)))
        }
        return try await feedBlocks()
    }
}
