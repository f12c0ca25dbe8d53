/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Live radio across instances and its recordings (issue 14): which instance holds each
    /// mount's source (the others relay it from there), the broadcasts recorded as episodes (an
    /// unfinished one is a recording a crash interrupted), and the stations that record.
    static let radioSourcesAndRecordings = Migration(
        version: 15, name: "radio sources and recordings",
        statements: [
            """
            CREATE TABLE radio_sources (
                mount TEXT PRIMARY KEY,
                instance TEXT NOT NULL,
                relay_url TEXT NOT NULL,
                content_type TEXT NOT NULL,
                live BOOLEAN NOT NULL,
                title TEXT NOT NULL,
                started_at BIGINT NOT NULL,
                seen_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE radio_recordings (
                media_id BIGINT PRIMARY KEY REFERENCES media(id) ON DELETE CASCADE,
                station_id BIGINT REFERENCES stations(id) ON DELETE SET NULL,
                started_at BIGINT NOT NULL,
                finished_at BIGINT
            )
            """,
        ],
        addedColumns: [
            .init(table: "stations", column: "records_broadcasts", definition: "BOOLEAN NOT NULL DEFAULT FALSE")
        ])
}
