/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Radio stations as they broadcast (issue 14): the catalogue's first `stations` table, which
    /// nothing wrote, gives way to one with a mount, a hashed source password, a listener limit and
    /// the programme its broadcasts are recorded into.
    static let radioStations = Migration(
        version: 14, name: "radio stations",
        statements: [
            "DROP TABLE stations",
            """
            CREATE TABLE stations (
                id {{id}},
                name TEXT NOT NULL,
                mount TEXT NOT NULL UNIQUE,
                description TEXT NOT NULL,
                genre TEXT NOT NULL,
                region TEXT NOT NULL,
                source_password_hash TEXT NOT NULL,
                listener_limit INTEGER NOT NULL,
                programme_id BIGINT REFERENCES parents(id) ON DELETE SET NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
