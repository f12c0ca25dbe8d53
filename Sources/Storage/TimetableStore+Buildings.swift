import SQLKit
import Timetable

/// Buildings: their names and places, as admins set them (issue 16, item 4).
extension TimetableStore {
    /// Every building a room is in or an admin described, by number, with its room count.
    public func buildings() async throws -> [Building] {
        try await db.raw(
            """
            SELECT n.number, b.name, b.latitude, b.longitude,
            (SELECT COUNT(*) FROM rooms r WHERE r.building = n.number) AS room_count
            FROM (SELECT building AS number FROM rooms WHERE building IS NOT NULL UNION SELECT number FROM buildings) n
            LEFT JOIN buildings b ON b.number = n.number ORDER BY n.number
            """
        ).all().map { row in
            Building(
                number: try row.decode(column: "number", as: Int.self),
                name: try row.decode(column: "name", as: String?.self), point: try Self.point(row),
                roomCount: try row.decode(column: "room_count", as: Int.self))
        }
    }

    /// Sets a building's name and place (nil clears them); every schedule's rooms show the change,
    /// as the timetable's version moves on.
    public func setBuilding(number: Int, name: String?, point: MapPoint?) async throws {
        try await db.raw(
            """
            INSERT INTO buildings (number, name, latitude, longitude)
            VALUES (\(bind: number), \(bind: name), \(bind: point?.latitude), \(bind: point?.longitude))
            ON CONFLICT (number) DO UPDATE SET name = excluded.name, latitude = excluded.latitude,
            longitude = excluded.longitude
            """
        ).run()
        try await bumpVersion()
    }
}
