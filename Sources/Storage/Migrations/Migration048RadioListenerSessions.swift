/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Listener statistics (issue 42): each listening session of a station, written when it ends:
    /// who (a key that tells listeners apart: an account, or a hash of address and player), when,
    /// and the show that was on when it began.
    static let radioListenerSessions = Migration(
        version: 48, name: "Radio listener sessions",
        statements: [
            """
            CREATE TABLE radio_listener_sessions (
                id {{id}},
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                show_id BIGINT REFERENCES radio_shows(id) ON DELETE SET NULL,
                listener TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                ended_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX radio_listener_sessions_station ON radio_listener_sessions(station_id, started_at)",
        ])
}
