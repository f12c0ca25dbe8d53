/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Competitions and their entries (seed 002). An entry without a result has a NULL result,
    /// never 0. A competition's owner cannot be deleted while it owns competitions (the account
    /// deletion hands them to an admin first); entries go with their competition or their
    /// participant.
    static let compete = Migration(
        version: 3, name: "compete",
        statements: [
            """
            CREATE TABLE competitions (
                id {{id}},
                name TEXT NOT NULL,
                search_key TEXT NOT NULL,
                description TEXT NOT NULL,
                metric TEXT NOT NULL CHECK (metric IN ('distance', 'time', 'points')),
                unit TEXT NOT NULL,
                starts_at BIGINT,
                ends_at BIGINT,
                active BOOLEAN NOT NULL,
                participant_uploads BOOLEAN NOT NULL,
                owner_id BIGINT NOT NULL REFERENCES users(id),
                template_id BIGINT REFERENCES competitions(id) ON DELETE SET NULL,
                series_id BIGINT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL,
                results_version BIGINT NOT NULL DEFAULT 0
            )
            """,
            "CREATE INDEX competitions_owner ON competitions (owner_id)",
            "CREATE INDEX competitions_series ON competitions (series_id)",
            "CREATE INDEX competitions_template ON competitions (template_id)",
            "CREATE INDEX competitions_active ON competitions (active, search_key)",
            """
            CREATE TABLE entries (
                competition_id BIGINT NOT NULL REFERENCES competitions(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                result DOUBLE PRECISION,
                joined_at BIGINT NOT NULL,
                result_at BIGINT,
                track_distance DOUBLE PRECISION,
                track_elapsed DOUBLE PRECISION,
                track_moving DOUBLE PRECISION,
                track_points INTEGER,
                track_segments INTEGER,
                PRIMARY KEY (competition_id, user_id)
            )
            """,
            "CREATE INDEX entries_user ON entries (user_id)",
        ])
}
