/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Students' tasks with deadlines, and their photos (kept in the database, as avatars are:
    /// one backup holds everything). A deadline is a moment, in seconds since 1970.
    static let studyTasks = Migration(
        version: 12, name: "study tasks",
        statements: [
            """
            CREATE TABLE study_tasks (
                id {{id}},
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                subject TEXT NOT NULL,
                body TEXT NOT NULL,
                deadline BIGINT,
                done BOOLEAN NOT NULL DEFAULT FALSE,
                created_at BIGINT NOT NULL,
                updated_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX study_tasks_user ON study_tasks (user_id, done, deadline)",
            """
            CREATE TABLE study_task_images (
                id {{id}},
                task_id BIGINT NOT NULL REFERENCES study_tasks(id) ON DELETE CASCADE,
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                content_type TEXT NOT NULL,
                size BIGINT NOT NULL,
                data {{blob}} NOT NULL,
                created_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX study_task_images_task ON study_task_images (task_id)",
            "CREATE INDEX study_task_images_user ON study_task_images (user_id)",
        ])
}
