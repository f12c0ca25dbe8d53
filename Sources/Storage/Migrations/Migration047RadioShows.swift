/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// A station's show schedule and its DJs (issue 42): each show weekly on some days at set times
    /// (`weekdays` a bit set from Monday) or once (`starts_at` to `ends_at`), its hosts, the
    /// programme its broadcasts are recorded into; each DJ's own source password for a station
    /// (a bcrypt hash), accepted only in their shows' time.
    static let radioShows = Migration(
        version: 47, name: "Radio shows and DJs",
        statements: [
            """
            CREATE TABLE radio_shows (
                id {{id}},
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                title TEXT NOT NULL,
                description TEXT NOT NULL,
                weekdays INTEGER NOT NULL,
                starts_minute INTEGER NOT NULL,
                ends_minute INTEGER NOT NULL,
                starts_at BIGINT,
                ends_at BIGINT,
                programme_id BIGINT REFERENCES parents(id) ON DELETE SET NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX radio_shows_station ON radio_shows(station_id)",
            """
            CREATE TABLE radio_show_hosts (
                show_id BIGINT NOT NULL REFERENCES radio_shows(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                PRIMARY KEY (show_id, user_id)
            )
            """,
            "CREATE INDEX radio_show_hosts_user ON radio_show_hosts(user_id)",
            """
            CREATE TABLE radio_dj_credentials (
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                password_hash TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (station_id, user_id)
            )
            """,
        ])
}
