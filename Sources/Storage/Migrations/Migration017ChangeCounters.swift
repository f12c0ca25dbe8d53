/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Counters that a change of a kind of data raises, so that what other processes keep in
    /// memory can see it changed (with SQLite, where there is no NOTIFY: the CLI is another
    /// process). `accounts` counts changes to users and sessions.
    static let changeCounters = Migration(
        version: 17, name: "change counters",
        statements: [
            """
            CREATE TABLE change_counters (
                name TEXT PRIMARY KEY,
                version BIGINT NOT NULL
            )
            """,
            "INSERT INTO change_counters (name, version) VALUES ('accounts', 0)",
        ])
}
