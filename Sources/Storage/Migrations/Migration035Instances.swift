/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// The instances alive (issue 40's admin overview): each running server says every few
    /// seconds that it is there (its name as in `job_leases`, when it started, when last seen, in
    /// milliseconds); one not seen for a week is forgotten.
    static let instances = Migration(
        version: 35, name: "instances",
        statements: [
            """
            CREATE TABLE instances (
                name TEXT PRIMARY KEY,
                started_at BIGINT NOT NULL,
                seen_at BIGINT NOT NULL
            )
            """
        ])
}
