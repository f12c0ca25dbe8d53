/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// How each user's timetable shows lessons (seed 000's lesson view settings: full subject
    /// names), as JSON so that later settings need no step of their own.
    static let timetableDisplaySettings = Migration(
        version: 27, name: "timetable display settings",
        statements: [
            """
            CREATE TABLE timetable_display_settings (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                settings TEXT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """
        ])
}
