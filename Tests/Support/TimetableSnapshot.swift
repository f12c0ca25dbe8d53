import SQLKit
import Storage

/// Every row of every timetable table, in a stable order, to compare whole states. Rows are
/// named by their natural keys (a lesson by its identity, a teacher by its URL id, a room by its
/// name and building), not their ids: an import on PostgreSQL stores its batches of lessons, and
/// the rooms and teachers they name, in the order the batches reach the database.
public func snapshot(_ database: Database) async throws -> [String] {
    let tables: [(String, SQLQueryString)] = [
        ("faculties", "SELECT * FROM faculties ORDER BY id"),
        ("specialities", "SELECT * FROM specialities ORDER BY id"),
        ("departments", "SELECT * FROM departments ORDER BY abbreviation"),
        ("rooms", "SELECT * FROM rooms ORDER BY name, building_key"),
        ("study_groups", "SELECT * FROM study_groups ORDER BY name"),
        ("teachers", "SELECT * FROM teachers ORDER BY url_id"),
        (
            "teacher_departments",
            """
            SELECT t.url_id, d.department FROM teacher_departments AS d JOIN teachers AS t ON t.id = d.teacher_id
            ORDER BY t.url_id, d.department
            """
        ),
        ("lesson_types", "SELECT * FROM lesson_types ORDER BY id"),
        ("lessons", "SELECT * FROM lessons ORDER BY identity_hash"),
        (
            "lesson_groups",
            """
            SELECT l.identity_hash, g.group_name FROM lesson_groups AS g JOIN lessons AS l ON l.id = g.lesson_id
            ORDER BY l.identity_hash, g.group_name
            """
        ),
        (
            "lesson_teachers",
            """
            SELECT l.identity_hash, t.url_id, CASE WHEN lt.from_teacher_schedule THEN 'yes' ELSE 'no' END AS own
            FROM lesson_teachers AS lt JOIN lessons AS l ON l.id = lt.lesson_id JOIN teachers AS t ON t.id = lt.teacher_id
            ORDER BY l.identity_hash, t.url_id
            """
        ),
        (
            "lesson_rooms",
            """
            SELECT l.identity_hash, r.name, r.building_key FROM lesson_rooms AS lr JOIN lessons AS l ON l.id = lr.lesson_id
            JOIN rooms AS r ON r.id = lr.room_id ORDER BY l.identity_hash, r.name, r.building_key
            """
        ),
    ]
    let ids: Set<String> = ["rooms", "teachers", "lessons"]
    var lines: [String] = []
    for (table, query) in tables {
        let rows = try await database.read { db in try await db.raw(query).all() }
        for row in rows {
            let columns = row.allColumns.filter { $0 != "updated_at" && !(ids.contains(table) && $0 == "id") }
            let values = try columns.map { column in
                "\(column)=\(String(describing: try row.decode(column: column, as: String?.self) ?? "∅"))"
            }
            lines.append("\(table): " + values.joined(separator: " "))
        }
    }
    return lines
}
