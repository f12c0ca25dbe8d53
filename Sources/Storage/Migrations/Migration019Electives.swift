/// A landed step: never edited (MigrationTests pins its checksum); a change is a new step.
extension Migration {
    /// Seed 003's electives (issue 16, item 1): each student's speciality and year, and the
    /// subjects they take with the group chosen for each (0: not chosen yet).
    static let electives = Migration(
        version: 19, name: "electives",
        statements: [
            """
            CREATE TABLE study_programmes (
                user_id BIGINT PRIMARY KEY REFERENCES users(id) ON DELETE CASCADE,
                speciality TEXT NOT NULL,
                year INTEGER NOT NULL
            )
            """,
            """
            CREATE TABLE elective_choices (
                user_id BIGINT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                subject_id BIGINT NOT NULL REFERENCES subjects(id) ON DELETE CASCADE,
                group_number INTEGER NOT NULL,
                normative BOOLEAN NOT NULL,
                PRIMARY KEY (user_id, subject_id)
            )
            """,
        ])
}
