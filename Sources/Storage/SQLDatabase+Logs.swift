import SQLKit

/// What the per-user logs (the listening history, the radio listening) share: each keeps a
/// user's newest rows and forgets older ones as new ones come, so that no account grows one
/// without end.
extension SQLDatabase {
    /// Forgets a user's oldest rows of a log (`table`, with `user_id` or another `owner` column,
    /// `id` and the time column `time`, indexed as `(owner, time)`) beyond the newest `keeping`:
    /// one read of the newest row to forget, through the index, then one delete.
    func trimOldest(
        of table: String, time: String, userID: Int64, keeping: Int, owner: String = "user_id"
    ) async throws {
        guard
            let row = try await raw(
                """
                SELECT id, \(unsafeRaw: time) AS t FROM \(unsafeRaw: table) WHERE \(unsafeRaw: owner) = \(bind: userID)
                ORDER BY \(unsafeRaw: time) DESC, id DESC LIMIT 1 OFFSET \(unsafeRaw: String(keeping))
                """
            ).first()
        else { return }
        let id = try row.decode(column: "id", as: Int64.self)
        let at = try row.decode(column: "t", as: Int64.self)
        try await raw(
            """
            DELETE FROM \(unsafeRaw: table) WHERE \(unsafeRaw: owner) = \(bind: userID)
            AND (\(unsafeRaw: time) < \(bind: at) OR (\(unsafeRaw: time) = \(bind: at) AND id <= \(bind: id)))
            """
        ).run()
    }
}
