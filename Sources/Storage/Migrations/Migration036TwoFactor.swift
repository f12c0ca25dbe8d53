/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Two-factor sign-in (issue 40): when an account turned it on (`users.two_factor_at`, read
    /// with the account, so that a rule such as `--require-2fa-for admin` needs no other query);
    /// its TOTP secret and the last time step a code was accepted for (a code counts once),
    /// written when enrolment starts and confirmed by a first code; and ten recovery codes, kept
    /// as SHA-256 hashes, each used once.
    static let twoFactor = Migration(
        version: 36, name: "two-factor sign-in",
        statements: [
            "ALTER TABLE users ADD COLUMN two_factor_at BIGINT",
            """
            CREATE TABLE two_factor_secrets (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                secret TEXT NOT NULL,
                last_step BIGINT NOT NULL DEFAULT 0,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE recovery_codes (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                code_hash TEXT NOT NULL,
                used_at BIGINT,
                PRIMARY KEY (user_id, code_hash)
            )
            """,
        ])
}
