/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Seed 001's sharing (issue 18, item 3): a playlist its owner made public is readable by
    /// link, also without an account; every playlist starts private.
    static let publicPlaylists = Migration(
        version: 22, name: "public playlists",
        statements: [
            "ALTER TABLE playlists ADD COLUMN is_public BOOLEAN NOT NULL DEFAULT FALSE"
        ])
}
