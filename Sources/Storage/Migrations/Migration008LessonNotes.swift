/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Students' notes on lessons. A note names its lesson by id without a foreign key: a sync
    /// that drops a lesson must not drop what a student wrote (the note stays, listed by the API,
    /// and shows again if the lesson comes back with its id).
    static let lessonNotes = Migration(
        version: 8, name: "lesson notes",
        statements: [
            """
            CREATE TABLE lesson_notes (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                lesson_id BIGINT NOT NULL,
                day INTEGER,
                body TEXT NOT NULL,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX lesson_notes_user ON lesson_notes (user_id, lesson_id)",
        ])
}
