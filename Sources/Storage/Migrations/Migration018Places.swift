/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Where buildings and rooms are (issue 16, item 4): admins set a building's name and place;
    /// seed 003's files give each room its own place.
    static let places = Migration(
        version: 18, name: "places",
        statements: [
            """
            CREATE TABLE buildings (
                number INTEGER PRIMARY KEY,
                name TEXT,
                latitude DOUBLE PRECISION,
                longitude DOUBLE PRECISION
            )
            """,
            "ALTER TABLE rooms ADD COLUMN latitude DOUBLE PRECISION",
            "ALTER TABLE rooms ADD COLUMN longitude DOUBLE PRECISION",
        ])
}
