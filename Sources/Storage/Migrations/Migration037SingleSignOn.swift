/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// OpenID Connect sign-in (issue 40): a started sign-in, used once (`state`, with the `nonce`
    /// and PKCE verifier the callback needs, the browser it was started in, and where to go
    /// after); the provider's accounts linked to Campus accounts (issuer and subject, the only
    /// stable names of a person there); an offer to link an existing account of the same verified
    /// email, taken only with that account's password; and a session's ID token, which marks a
    /// session signed in at the provider and is the hint its logout sends.
    static let singleSignOn = Migration(
        version: 37, name: "OpenID Connect sign-in",
        statements: [
            "ALTER TABLE sessions ADD COLUMN id_token TEXT",
            """
            CREATE TABLE oidc_starts (
                state TEXT PRIMARY KEY,
                nonce TEXT NOT NULL,
                verifier TEXT NOT NULL,
                browser TEXT NOT NULL,
                next TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            """
            CREATE TABLE oidc_links (
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (issuer, subject)
            )
            """,
            "CREATE INDEX oidc_links_user ON oidc_links(user_id)",
            """
            CREATE TABLE oidc_offers (
                token_hash TEXT PRIMARY KEY,
                issuer TEXT NOT NULL,
                subject TEXT NOT NULL,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                id_token TEXT NOT NULL,
                next TEXT NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
        ])
}
