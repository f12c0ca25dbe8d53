/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// What was once added to steps 3 and 4 after they had landed, so that databases made before
    /// never got it: the index rankings are read by, and the link of a home-feed block. Databases
    /// made from the edited steps have both already, hence `IF NOT EXISTS` and a column added
    /// only where it is missing.
    static let rankingIndexAndFeedLinks = Migration(
        version: 5, name: "ranking index and feed links",
        statements: [
            "CREATE INDEX IF NOT EXISTS entries_result ON entries (competition_id, result)"
        ],
        addedColumns: [
            .init(table: "feed_blocks", column: "link", definition: "TEXT")
        ])
}
