/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Seed 001's settings screen (issue 18, item 6): reports on content and feedback, waiting in
    /// the admins' queue until one of them resolves it.
    static let contentReports = Migration(
        version: 23, name: "content reports",
        statements: [
            """
            CREATE TABLE content_reports (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                target TEXT,
                reason TEXT NOT NULL,
                note TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                resolved_at BIGINT,
                resolved_by BIGINT REFERENCES users(id) ON DELETE SET NULL
            )
            """,
            "CREATE INDEX content_reports_open ON content_reports (resolved_at, created_at)",
            "CREATE INDEX content_reports_user ON content_reports (user_id, resolved_at)",
        ])
}
