/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// What players that speak the Subsonic API sign in with (issue 17), never the account's
    /// password: API keys (kept as their SHA-256) and app passwords (kept sealed with a key made
    /// from the server secret, because Subsonic's token is an MD5 of the password itself).
    static let appCredentials = Migration(
        version: 21, name: "app credentials",
        statements: [
            """
            CREATE TABLE app_credentials (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL,
                name TEXT NOT NULL,
                key_hash TEXT UNIQUE,
                sealed TEXT,
                created_at BIGINT NOT NULL,
                last_used_at BIGINT
            )
            """,
            "CREATE INDEX app_credentials_user ON app_credentials (user_id, kind)",
        ])
}
