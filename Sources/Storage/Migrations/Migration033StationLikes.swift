/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Stations a listener likes (issue 39: a liked station tells them when it goes on the air),
    /// and when each station last told its listeners so (`on_air_told_at`, milliseconds): a
    /// source that comes back within two hours tells nobody again.
    static let stationLikes = Migration(
        version: 33, name: "station likes",
        statements: [
            """
            CREATE TABLE station_likes (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, station_id)
            )
            """,
            "CREATE INDEX station_likes_station ON station_likes (station_id)",
            "ALTER TABLE stations ADD COLUMN on_air_told_at BIGINT",
        ])
}
