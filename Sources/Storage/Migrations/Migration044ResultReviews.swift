/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Honest results (issue 41). A competition names its sport (the speed a result can have)
    /// and, for a time race, its course length. A flagged result waits in `review_value` with
    /// its `review_flags` (comma-separated) while `result` stays NULL, so that rankings, records
    /// and statistics count it only once an organizer accepts it; a rejection keeps its
    /// `review_note`, an appeal its `appeal_text`.
    static let resultReviews = Migration(
        version: 44, name: "Result reviews",
        statements: [
            "ALTER TABLE competitions ADD COLUMN sport TEXT NOT NULL DEFAULT 'other'",
            "ALTER TABLE competitions ADD COLUMN course_km DOUBLE PRECISION",
            "ALTER TABLE entries ADD COLUMN review_status TEXT",
            "ALTER TABLE entries ADD COLUMN review_value DOUBLE PRECISION",
            "ALTER TABLE entries ADD COLUMN review_flags TEXT",
            "ALTER TABLE entries ADD COLUMN review_note TEXT",
            "ALTER TABLE entries ADD COLUMN appeal_text TEXT",
            "ALTER TABLE entries ADD COLUMN reviewed_at BIGINT",
        ])
}
