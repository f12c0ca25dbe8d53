/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Whether a saved schedule's lessons join the user's own schedule (its page, API and feed).
    static let savedSchedulesInMySchedule = Migration(
        version: 13, name: "saved schedules in my schedule", statements: [],
        addedColumns: [
            .init(table: "saved_schedules", column: "in_my_schedule", definition: "BOOLEAN NOT NULL DEFAULT FALSE")
        ])
}
