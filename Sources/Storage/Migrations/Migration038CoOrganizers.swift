/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Several organizers per competition (issue 41): the owner adds co-organizers, who enter
    /// results and manage participants but neither delete the competition nor change its
    /// organizers. A deleted account or competition takes its rows along.
    static let coOrganizers = Migration(
        version: 38, name: "Co-organizers of competitions",
        statements: [
            """
            CREATE TABLE competition_organizers (
                competition_id BIGINT NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                added_at BIGINT NOT NULL,
                PRIMARY KEY (competition_id, user_id)
            )
            """,
            "CREATE INDEX competition_organizers_user ON competition_organizers(user_id)",
        ])
}
