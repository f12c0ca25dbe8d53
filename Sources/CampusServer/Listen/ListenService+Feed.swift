import Accounts
import CampusHTTP
import Foundation
import InputRules
import Listen
import Storage

/// The blocks of the home feed, which admins configure.
extension ListenService {
    // MARK: The home feed's blocks (admins)

    func feedBlocks() async throws -> (configured: Bool, blocks: [FeedBlockConfiguration]) {
        let blocks = try await database.read { db in try await ListenStore(db).feedBlocks() }
        return (!blocks.isEmpty, blocks.isEmpty ? HomeFeed.defaultBlocks : blocks)
    }

    func saveFeedBlocks(_ blocks: [FeedBlockConfiguration], by user: UserRecord) async throws
        -> (configured: Bool, blocks: [FeedBlockConfiguration])
    {
        guard user.role == .admin else { throw Problem.forbidden("Only admins configure the home feed.") }
        guard blocks.count <= FeedBlockConfiguration.blockLimit else {
            throw Problem.invalid(
                FieldProblem(
                    field: "blocks", detail: "The feed has at most {maximum} blocks.",
                    ["maximum": String(FeedBlockConfiguration.blockLimit)]))
        }
        var checked: [FeedBlockConfiguration] = []
        for (index, block) in blocks.enumerated() {
            do {
                checked.append(try block.validated())
            } catch {
                throw Problem.invalid(
                    FieldProblem(field: "blocks[\(index)].\(error.field)", error.phrase))
            }
        }
        let saved = checked
        try await database.write { db in
            let store = ListenStore(db)
            for (index, block) in saved.enumerated() {
                if case .genre(let id) = FeedBlockConfiguration.Source(block.source),
                    try await store.genre(id: id) == nil
                {
                    throw Problem.invalid(
                        FieldProblem(
                            field: "blocks[\(index)].source", detail: "There is no genre {id}.", ["id": String(id)]))
                }
            }
            try await store.saveFeedBlocks(saved, now: now())
        }
        return try await feedBlocks()
    }
}
