/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Students' answers on teachers' cards, one per student and teacher (by the teacher's URL id,
    /// which stays the same across imports).
    static let teacherCardAnswers = Migration(
        version: 11, name: "teacher card answers",
        statements: [
            """
            CREATE TABLE teacher_card_answers (
                id {{id}},
                teacher TEXT NOT NULL,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                description TEXT,
                attendance TEXT CHECK (attendance IN ('yes', 'no', 'sometimes')),
                automatic_pass BOOLEAN,
                hidden BOOLEAN NOT NULL DEFAULT FALSE,
                updated_at BIGINT NOT NULL,
                UNIQUE (teacher, user_id)
            )
            """
        ])
}
