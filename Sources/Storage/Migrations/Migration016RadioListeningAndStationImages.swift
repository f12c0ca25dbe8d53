/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Listening to a station, kept in the listener's history as a radio event (the station's name
    /// stays when the station is removed), and a station's image.
    static let radioListeningAndStationImages = Migration(
        version: 16, name: "radio listening and station images",
        statements: [
            """
            CREATE TABLE radio_listening (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                station_id BIGINT REFERENCES stations(id) ON DELETE SET NULL,
                station_name TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                seconds BIGINT NOT NULL
            )
            """,
            "CREATE INDEX radio_listening_user ON radio_listening (user_id, started_at)",
            """
            CREATE TABLE station_images (
                station_id BIGINT PRIMARY KEY REFERENCES stations(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                data {{blob}} NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
