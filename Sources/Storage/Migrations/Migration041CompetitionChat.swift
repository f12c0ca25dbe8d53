/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// A chat per competition (issue 41): its organizers' and participants' messages. A deleted
    /// message keeps its row without its text, so that readers see where it was. Each message
    /// and each deletion takes the competition's next chat version (`chat_versions`, whose row
    /// lock orders them), by which live pages on every instance read what they have not sent. A
    /// deleted account or competition takes its messages along.
    static let competitionChat = Migration(
        version: 41, name: "Competition chat",
        statements: [
            """
            CREATE TABLE chat_messages (
                id {{id}},
                competition_id BIGINT NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                body TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                version BIGINT NOT NULL,
                deleted_at BIGINT,
                deleted_by BIGINT
            )
            """,
            "CREATE INDEX chat_messages_competition ON chat_messages(competition_id, id)",
            "CREATE INDEX chat_messages_version ON chat_messages(competition_id, version)",
            "CREATE INDEX chat_messages_user ON chat_messages(user_id, created_at)",
            """
            CREATE TABLE chat_versions (
                competition_id BIGINT PRIMARY KEY REFERENCES competitions(id) ON DELETE CASCADE,
                version BIGINT NOT NULL
            )
            """,
        ])
}
