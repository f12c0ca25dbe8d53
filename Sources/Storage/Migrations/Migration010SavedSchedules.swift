/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Students' saved compound schedules: a name, a secret token for the calendar feed, and the
    /// groups, teachers and rooms in order.
    static let savedSchedules = Migration(
        version: 10, name: "saved schedules",
        statements: [
            """
            CREATE TABLE saved_schedules (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                name TEXT NOT NULL,
                token TEXT NOT NULL UNIQUE,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX saved_schedules_user ON saved_schedules (user_id)",
            """
            CREATE TABLE saved_schedule_members (
                schedule_id BIGINT NOT NULL REFERENCES saved_schedules(id) ON DELETE CASCADE,
                position INTEGER NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('group', 'teacher', 'room')),
                target TEXT NOT NULL,
                PRIMARY KEY (schedule_id, position)
            )
            """,
        ])
}
