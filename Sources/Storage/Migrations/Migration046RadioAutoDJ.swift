/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// A station that plays by itself (issue 42): its AutoDJ playlists, what each takes its tracks
    /// from (in order), every track the station played (its history: AutoDJ's picks and what live
    /// sources said), and how long a track waits before it plays again.
    static let radioAutoDJ = Migration(
        version: 46, name: "Radio AutoDJ",
        statements: [
            """
            CREATE TABLE radio_playlists (
                id {{id}},
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                kind TEXT NOT NULL,
                weight INTEGER NOT NULL,
                every_songs INTEGER NOT NULL,
                weekdays INTEGER NOT NULL,
                starts_minute INTEGER NOT NULL,
                ends_minute INTEGER NOT NULL,
                enabled BOOLEAN NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX radio_playlists_station ON radio_playlists(station_id)",
            """
            CREATE TABLE radio_playlist_sources (
                playlist_id BIGINT NOT NULL REFERENCES radio_playlists(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                kind TEXT NOT NULL,
                ref_id BIGINT NOT NULL,
                PRIMARY KEY (playlist_id, position)
            )
            """,
            """
            CREATE TABLE radio_plays (
                id {{id}},
                station_id BIGINT NOT NULL REFERENCES stations(id) ON DELETE CASCADE,
                media_id BIGINT REFERENCES media(id) ON DELETE SET NULL,
                playlist_id BIGINT REFERENCES radio_playlists(id) ON DELETE SET NULL,
                title TEXT NOT NULL,
                source TEXT NOT NULL,
                played_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX radio_plays_station ON radio_plays(station_id, played_at)",
        ],
        addedColumns: [
            .init(table: "stations", column: "repeat_window_minutes", definition: "INTEGER NOT NULL DEFAULT 60")
        ])
}
