/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Seed 001's feed blocks with every field (issue 18, item 1) — a highlight line over the
    /// title, a description, an image admins upload (a background, an ad's banner) and the
    /// title's own link —, pictures admins upload for authors and genres (which otherwise show
    /// a cover of theirs), and the genres and authors a listener picked for their
    /// recommendations (item 4), one row per listener, changed as a whole.
    static let feedBlockFieldsAndPicks = Migration(
        version: 24, name: "feed block fields, pictures and picks",
        statements: [
            """
            CREATE TABLE library_images (
                id {{id}},
                content_type TEXT NOT NULL,
                data {{blob}} NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "ALTER TABLE feed_blocks ADD COLUMN highlight_text TEXT",
            "ALTER TABLE feed_blocks ADD COLUMN description TEXT",
            "ALTER TABLE feed_blocks ADD COLUMN image_id BIGINT REFERENCES library_images(id) ON DELETE SET NULL",
            "ALTER TABLE feed_blocks ADD COLUMN title_link TEXT",
            "ALTER TABLE authors ADD COLUMN image_id BIGINT REFERENCES library_images(id) ON DELETE SET NULL",
            "ALTER TABLE genres ADD COLUMN image_id BIGINT REFERENCES library_images(id) ON DELETE SET NULL",
            """
            CREATE TABLE listener_picks (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                genres TEXT NOT NULL,
                authors TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
        ])
}
