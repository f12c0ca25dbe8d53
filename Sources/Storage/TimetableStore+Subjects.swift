import SQLKit
import SharedHelpers
import Timetable

/// The subject catalogue of seed 003's study plan, which students choose electives from.
extension TimetableStore {
    /// Which of these groups the timetable has, in one read.
    public func existingGroups(_ names: [String]) async throws -> Set<String> {
        guard !names.isEmpty else { return [] }
        var found: Set<String> = []
        for part in names.chunked(Self.chunk) {
            found.formUnion(
                try await db.raw("SELECT name FROM study_groups WHERE name IN (\(list(Array(part))))")
                    .all(decodingColumn: "name", as: String.self))
        }
        return found
    }

    /// Every subject, by id.
    public func subjects() async throws -> [ImportedSubject] {
        try await db.raw(
            """
            SELECT id, name, faculty, speciality, year, trimester, kind, number_of_groups FROM subjects ORDER BY id
            """
        ).all().compactMap { row in
            guard let kind = ImportedSubject.Kind(rawValue: try row.decode(column: "kind", as: String.self)) else {
                return nil
            }
            return ImportedSubject(
                id: try row.decode(column: "id", as: Int.self), name: try row.decode(column: "name", as: String.self),
                faculty: try row.decode(column: "faculty", as: String?.self),
                speciality: try row.decode(column: "speciality", as: String.self),
                year: try row.decode(column: "year", as: Int.self),
                trimester: try row.decode(column: "trimester", as: Int?.self), kind: kind,
                numberOfGroups: try row.decode(column: "number_of_groups", as: Int.self))
        }
    }
}
