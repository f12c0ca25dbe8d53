/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// A user's nicknames for groups and colours for lesson types.
    static let personalTouches = Migration(
        version: 9, name: "personal touches",
        statements: [
            """
            CREATE TABLE group_nicknames (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                group_name TEXT NOT NULL,
                nickname TEXT NOT NULL,
                PRIMARY KEY (user_id, group_name)
            )
            """,
            """
            CREATE TABLE lesson_type_colours (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                type_id TEXT NOT NULL,
                colour TEXT NOT NULL,
                PRIMARY KEY (user_id, type_id)
            )
            """,
        ])
}
