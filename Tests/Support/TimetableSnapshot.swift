import SQLKit
import Storage

/// Every row of every timetable table, in a stable order, to compare whole states.
public func snapshot(_ database: Database) async throws -> [String] {
    let tables = [
        ("faculties", "id"), ("specialities", "id"), ("departments", "abbreviation"), ("rooms", "id"),
        ("study_groups", "name"), ("teachers", "id"), ("teacher_departments", "teacher_id, department"),
        ("lesson_types", "id"), ("lessons", "id"), ("lesson_groups", "lesson_id, group_name"),
        ("lesson_teachers", "lesson_id, teacher_id"), ("lesson_rooms", "lesson_id, room_id"),
    ]
    var lines: [String] = []
    for (table, order) in tables {
        let rows = try await database.read { db in
            try await db.raw("SELECT * FROM \(unsafeRaw: table) ORDER BY \(unsafeRaw: order)").all()
        }
        for row in rows {
            let values = try row.allColumns.filter { $0 != "updated_at" }.map { column in
                "\(column)=\(String(describing: try row.decode(column: column, as: String?.self) ?? "∅"))"
            }
            lines.append("\(table): " + values.joined(separator: " "))
        }
    }
    return lines
}
