/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// The audit log (issue 40): one row per privileged action, written in the transaction of the
    /// action. The actor is kept by id (no foreign key: the entry outlives the account) and by the
    /// name it had then; `address` is the client's, null for the command line and jobs; `before`
    /// and `after` are short texts. Rows older than the configured time are removed by housekeeping.
    static let auditLog = Migration(
        version: 34, name: "audit log",
        statements: [
            """
            CREATE TABLE audit_log (
                id {{id}},
                at BIGINT NOT NULL,
                action TEXT NOT NULL,
                actor_id BIGINT,
                actor_name TEXT NOT NULL,
                address TEXT,
                target_kind TEXT NOT NULL,
                target_id TEXT,
                target_label TEXT,
                before_value TEXT,
                after_value TEXT
            )
            """,
            "CREATE INDEX audit_log_at ON audit_log (at)",
            "CREATE INDEX audit_log_action ON audit_log (action, id)",
            "CREATE INDEX audit_log_actor ON audit_log (actor_id, id)",
            "CREATE INDEX audit_log_target ON audit_log (target_kind, target_id, id)",
        ])
}
