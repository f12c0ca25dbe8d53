/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Seed 004's window messages (issue 16, item 5): what a group's timetable says of a free
    /// slot, by weekday, study week and time.
    static let windowNotes = Migration(
        version: 20, name: "window notes",
        statements: [
            """
            CREATE TABLE window_notes (
                group_name TEXT NOT NULL REFERENCES study_groups(name) ON DELETE CASCADE,
                weekday INTEGER NOT NULL,
                weeks INTEGER NOT NULL,
                start_minute INTEGER NOT NULL,
                end_minute INTEGER NOT NULL,
                text TEXT NOT NULL
            )
            """,
            "CREATE INDEX window_notes_group ON window_notes (group_name)",
        ])
}
