/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// What is personal in a user's timetable: favorites, and the secret address of their own
    /// calendar feed with the reminders it carries.
    static let personalTimetable = Migration(
        version: 7, name: "personal timetable",
        statements: [
            """
            CREATE TABLE favorites (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                kind TEXT NOT NULL CHECK (kind IN ('group', 'teacher', 'room', 'department')),
                target TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                PRIMARY KEY (user_id, kind, target)
            )
            """,
            """
            CREATE TABLE personal_calendars (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                token TEXT NOT NULL UNIQUE,
                reminder_minutes INTEGER,
                created_at BIGINT NOT NULL
            )
            """,
        ])
}
