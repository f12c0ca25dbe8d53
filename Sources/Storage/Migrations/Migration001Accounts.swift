/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    static let accounts = Migration(
        version: 1, name: "accounts",
        statements: [
            """
            CREATE TABLE settings (
                key TEXT PRIMARY KEY,
                value TEXT NOT NULL
            )
            """,
            """
            CREATE TABLE users (
                id {{id}},
                email TEXT NOT NULL,
                email_key TEXT NOT NULL UNIQUE,
                password_hash TEXT NOT NULL,
                first_name TEXT NOT NULL,
                last_name TEXT NOT NULL,
                role TEXT NOT NULL CHECK (role IN ('user', 'organizer', 'admin')),
                study_group TEXT,
                subgroup INTEGER NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE avatars (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                data {{blob}} NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE sessions (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                token_hash TEXT NOT NULL UNIQUE,
                kind TEXT NOT NULL CHECK (kind IN ('api', 'web')),
                created_at BIGINT NOT NULL,
                last_seen_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                user_agent TEXT,
                address TEXT
            )
            """,
            "CREATE INDEX sessions_user ON sessions (user_id)",
            """
            CREATE TABLE password_resets (
                token_hash TEXT PRIMARY KEY,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                expires_at BIGINT NOT NULL,
                used_at BIGINT
            )
            """,
            "CREATE INDEX password_resets_user ON password_resets (user_id)",
            """
            CREATE TABLE login_failures (
                id {{id}},
                account_key TEXT NOT NULL,
                address TEXT NOT NULL,
                failed_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX login_failures_account ON login_failures (account_key, failed_at)",
            "CREATE INDEX login_failures_address ON login_failures (address, failed_at)",
            """
            CREATE TABLE outbox (
                id {{id}},
                recipient TEXT NOT NULL,
                subject TEXT NOT NULL,
                body TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                sent_at BIGINT,
                claimed_at BIGINT,
                attempts INTEGER NOT NULL DEFAULT 0,
                last_error TEXT
            )
            """,
            "CREATE INDEX outbox_pending ON outbox (sent_at, id)",
        ])
}
