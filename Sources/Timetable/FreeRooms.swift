/// Which rooms are free on a day for a stretch of time (seed 000's "free rooms"): a room is busy
/// while any lesson in it takes place — a lesson for one subgroup, an exam and an announcement
/// given a room all hold it.
public enum FreeRooms {
    /// A free room, with the lessons around the stretch asked about on that day.
    public struct Found: Sendable, Hashable {
        public var room: Room
        /// When the last lesson before the stretch ends; nil when the room has none before it.
        public var freeSince: WallTime?
        /// When the next lesson after the stretch starts; nil when the room has none after it.
        public var freeUntil: WallTime?

        public init(room: Room, freeSince: WallTime?, freeUntil: WallTime?) {
            self.room = room
            self.freeSince = freeSince
            self.freeUntil = freeUntil
        }
    }

    /// The rooms of `rooms` with at least `capacity` seats (when given) that no lesson of
    /// `lessons` holds on `day` between `start` and `end` (a lesson ending at `start`, or starting
    /// at `end`, leaves it free; with `end` equal to `start`, at that minute), in `rooms`' order. `lessons` must hold every lesson of these rooms
    /// that can take place on `day`; a room whose capacity is unknown is left out when a capacity
    /// is asked for.
    public static func find(
        in rooms: [Room], lessons: [Lesson], on day: LocalDate, from start: WallTime, to end: WallTime,
        capacity: Int? = nil, calendar: StudyCalendar
    ) -> [Found] {
        var busy: [Int64: [(start: WallTime, end: WallTime)]] = [:]
        for lesson in lessons where lesson.occurs(on: day, calendar: calendar) {
            for room in lesson.rooms { busy[room.id, default: []].append((lesson.start, lesson.end)) }
        }
        // In minutes, so that the minute 23:59 ends at 24:00.
        let first = start.minutes
        let last = max(end.minutes, first + 1)
        return rooms.compactMap { room in
            if let capacity, (room.capacity ?? 0) < capacity { return nil }
            let held = busy[room.id] ?? []
            guard !held.contains(where: { $0.start.minutes < last && first < $0.end.minutes }) else { return nil }
            return Found(
                room: room, freeSince: held.filter { $0.end.minutes <= first }.map(\.end).max(),
                freeUntil: held.filter { $0.start.minutes >= last }.map(\.start).min())
        }
    }
}
