/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// The language a user chose for Campus (a catalogue's code); NULL follows their browser.
    static let userLanguage = Migration(
        version: 6, name: "user language",
        statements: [],
        addedColumns: [
            .init(table: "users", column: "language", definition: "TEXT")
        ])
}
