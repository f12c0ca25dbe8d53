/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Form posts sent with an `Idempotency-Key` (the installed app's outbox, issue 36): one sent
    /// again (its first answer was lost on the way) is answered where the first went, not done twice.
    static let sentForms = Migration(
        version: 29, name: "sent forms",
        statements: [
            """
            CREATE TABLE sent_forms (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                idempotency_key TEXT NOT NULL,
                location TEXT NOT NULL,
                sent_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, idempotency_key)
            )
            """,
            "CREATE INDEX sent_forms_sent_at ON sent_forms (sent_at)",
        ])
}
