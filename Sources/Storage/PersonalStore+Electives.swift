import SQLKit
import Timetable

/// A student's speciality and year and the subjects they take (seed 003's electives).
extension PersonalStore {
    /// The user's speciality and year; nil before they chose them.
    public func studyProgramme(userID: Int64) async throws -> (speciality: String, year: Int)? {
        guard
            let row = try await db.raw(
                "SELECT speciality, year FROM study_programmes WHERE user_id = \(bind: userID)"
            ).first()
        else { return nil }
        return (try row.decode(column: "speciality", as: String.self), try row.decode(column: "year", as: Int.self))
    }

    /// The subjects the user takes, by subject id.
    public func electiveChoices(userID: Int64) async throws -> [Electives.Choice] {
        try await db.raw(
            """
            SELECT subject_id, group_number, normative FROM elective_choices WHERE user_id = \(bind: userID)
            ORDER BY subject_id
            """
        ).all().map { row in
            Electives.Choice(
                subjectID: try row.decode(column: "subject_id", as: Int.self),
                group: try row.decode(column: "group_number", as: Int.self),
                isNormative: try row.decode(column: "normative", as: Bool.self))
        }
    }

    /// Sets the speciality and year and replaces the choices with `choices`.
    public func setStudyProgramme(
        userID: Int64, speciality: String, year: Int, choices: [Electives.Choice]
    ) async throws {
        try await db.raw(
            """
            INSERT INTO study_programmes (user_id, speciality, year) VALUES (\(bind: userID), \(bind: speciality), \(bind: year))
            ON CONFLICT (user_id) DO UPDATE SET speciality = excluded.speciality, year = excluded.year
            """
        ).run()
        try await db.raw("DELETE FROM elective_choices WHERE user_id = \(bind: userID)").run()
        for choice in choices { try await setElective(choice, userID: userID) }
    }

    /// Adds a subject, or changes its group.
    public func setElective(_ choice: Electives.Choice, userID: Int64) async throws {
        try await db.raw(
            """
            INSERT INTO elective_choices (user_id, subject_id, group_number, normative)
            VALUES (\(bind: userID), \(bind: choice.subjectID), \(bind: choice.group), \(bind: choice.isNormative))
            ON CONFLICT (user_id, subject_id) DO UPDATE SET group_number = excluded.group_number,
            normative = excluded.normative
            """
        ).run()
    }

    /// Removes a subject; false when the user did not take it.
    public func removeElective(subjectID: Int, userID: Int64) async throws -> Bool {
        try await db.raw(
            """
            DELETE FROM elective_choices WHERE user_id = \(bind: userID) AND subject_id = \(bind: subjectID)
            RETURNING subject_id
            """
        ).first() != nil
    }
}
