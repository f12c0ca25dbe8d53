/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Listeners' requests (issue 42): a track of the station's request list that AutoDJ plays
    /// next (`played_at` once it did).
    static let radioRequests = Migration(
        version: 49, name: "Radio requests",
        statements: [
            """
            CREATE TABLE radio_requests (
                id {{id}},
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                media_id BIGINT NOT NULL REFERENCES media(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                requested_at BIGINT NOT NULL,
                played_at BIGINT
            )
            """,
            "CREATE INDEX radio_requests_station ON radio_requests(station_id, played_at, requested_at)",
            "CREATE INDEX radio_requests_user ON radio_requests(user_id, requested_at)",
        ])
}
