/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Schedule changes, kept (issue 39): each change of a lesson occurrence in the eight weeks
    /// ahead that an import or sync brought, once for every group, teacher and room it concerns
    /// (`target_kind` group, teacher or room; `target` the group's name, the teacher's URL id or
    /// the room's id), with the occurrence before (`old_…`) and after (`new_…`): days as day
    /// numbers, times as minutes, rooms and teachers as the names lessons show, one per line;
    /// `old_lesson`/`new_lesson` are the lessons' row ids then (calendar feeds name an event
    /// after its lesson). `day` is the day the change is about (the new one, or the old one of a
    /// cancelled occurrence); `seen_at` when the import stored it (milliseconds).
    /// `cancelled_lessons` keeps a lesson an import removed (its row as `lessons` held it, with
    /// the names of its groups and the ids of its teachers and rooms, one per line) so that
    /// calendar feeds can say for two weeks that its events are cancelled, under the same UIDs.
    static let scheduleChanges = Migration(
        version: 31, name: "schedule changes",
        statements: [
            """
            CREATE TABLE schedule_changes (
                id {{id}},
                target_kind TEXT NOT NULL,
                target TEXT NOT NULL,
                kind TEXT NOT NULL,
                subject TEXT NOT NULL,
                type_id TEXT,
                subgroup INTEGER NOT NULL,
                day INTEGER NOT NULL,
                old_lesson BIGINT,
                old_day INTEGER,
                old_start INTEGER,
                old_end INTEGER,
                old_rooms TEXT,
                old_teachers TEXT,
                new_lesson BIGINT,
                new_day INTEGER,
                new_start INTEGER,
                new_end INTEGER,
                new_rooms TEXT,
                new_teachers TEXT,
                seen_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX schedule_changes_target ON schedule_changes (target_kind, target, seen_at)",
            "CREATE INDEX schedule_changes_seen_at ON schedule_changes (seen_at)",
            """
            CREATE TABLE cancelled_lessons (
                id BIGINT PRIMARY KEY,
                subject TEXT NOT NULL,
                subject_full TEXT,
                type_id TEXT,
                start_minute INTEGER NOT NULL,
                end_minute INTEGER NOT NULL,
                weekday INTEGER,
                weeks INTEGER NOT NULL,
                subgroup INTEGER NOT NULL,
                start_day INTEGER,
                end_day INTEGER,
                date_day INTEGER,
                note TEXT,
                announcement BOOLEAN NOT NULL,
                exam BOOLEAN NOT NULL,
                groups TEXT NOT NULL,
                teachers TEXT NOT NULL,
                rooms TEXT NOT NULL,
                cancelled_at BIGINT NOT NULL
            )
            """,
            "CREATE INDEX cancelled_lessons_cancelled_at ON cancelled_lessons (cancelled_at)",
        ])
}
