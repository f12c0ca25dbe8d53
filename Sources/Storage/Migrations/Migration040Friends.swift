/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Friends (issue 41): a user asks to follow another, who accepts (`accepted_at` set) or
    /// declines (the row goes). Following is one way: each direction is its own row. A deleted
    /// account takes its rows along.
    static let friends = Migration(
        version: 40, name: "Friends",
        statements: [
            """
            CREATE TABLE follows (
                follower_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                followed_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                requested_at BIGINT NOT NULL,
                accepted_at BIGINT,
                PRIMARY KEY (follower_id, followed_id),
                CHECK (follower_id <> followed_id)
            )
            """,
            "CREATE INDEX follows_followed ON follows(followed_id)",
        ])
}
