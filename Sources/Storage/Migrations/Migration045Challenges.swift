/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Challenges (issue 41): a competition is a `race` or a `challenge`, perhaps open to one
    /// faculty only; a challenge's participants log activities, whose sum is their result. An
    /// entry's deletion (leaving, a kick, a deleted account or competition) takes its activities.
    static let challenges = Migration(
        version: 45, name: "Challenges",
        statements: [
            "ALTER TABLE competitions ADD COLUMN kind TEXT NOT NULL DEFAULT 'race'",
            "ALTER TABLE competitions ADD COLUMN faculty TEXT",
            """
            CREATE TABLE activities (
                id {{id}},
                competition_id BIGINT NOT NULL,
                user_id BIGINT NOT NULL,
                value DOUBLE PRECISION NOT NULL,
                done_at BIGINT NOT NULL,
                note TEXT NOT NULL,
                source TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                FOREIGN KEY (competition_id, user_id) REFERENCES entries(competition_id, user_id) ON DELETE CASCADE
            )
            """,
            "CREATE INDEX activities_entry ON activities(competition_id, user_id, done_at)",
        ])
}
