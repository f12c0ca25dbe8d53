import Foundation
import InputRules
import Storage
import Timetable

/// Free rooms: which rooms no lesson holds on a day at a time or during a pair.
extension TimetableService {
    /// What was asked, as understood: the day and the stretch of it.
    struct FreeRoomsAnswer: Sendable {
        var date: LocalDate
        var start: WallTime
        var end: WallTime
        /// The pair asked for, or the pair the time asked for falls in.
        var pair: Int?
        var pairs: PairTimes
        var sections: [Timetable.Section<FreeRooms.Found>]
        var total: Int { sections.reduce(0) { $0 + $1.items.count } }
    }

    /// The most seats a capacity filter may ask for.
    static let maximumCapacity = 10_000

    /// The rooms (of `building`, of `type`, with at least `capacity` seats) free on `date`
    /// (today when absent) at `time` (HH:MM) or during pair `pair` — the time now when neither is
    /// given — in sections by building.
    func freeRooms(
        date: String?, time: String?, pair: Int?, building: Int?, type: String?, capacity: Int?
    ) async throws -> FreeRoomsAnswer {
        let pairs = try await pairTimes()
        var validator = Validator()
        let asked = date.flatMap { text in
            validator.check { () throws(FieldProblem) in try Self.date(text, field: "date") }
        }
        // The minute now, unless a time or a pair is asked for.
        let local = LocalDateTime(now(), in: timeZone)
        let nowMinute = WallTime(minutes: local.minutes) ?? WallTime(minutes: 0)
        var start = nowMinute
        var end = nowMinute
        if time != nil, pair != nil {
            validator.add(FieldProblem(field: "pair", detail: "Give a time or a pair, not both."))
        } else if let time {
            if let at = WallTime(time) {
                (start, end) = (at, at)
            } else {
                validator.add(
                    FieldProblem(field: "time", detail: "“{text}” is not a time like 11:40.", ["text": time]))
            }
        } else if let pair {
            if let slot = pairs.slot(pair) {
                (start, end) = (slot.start, slot.end)
            } else {
                validator.add(
                    FieldProblem(
                        field: "pair", detail: "There is no pair {pair}; a day has pairs 1 to {count}.",
                        ["pair": String(pair), "count": String(pairs.slots.count)]))
            }
        }
        if let capacity, !(1...Self.maximumCapacity).contains(capacity) {
            validator.add(
                FieldProblem(
                    field: "capacity", detail: "must be 1 to {maximum}.", ["maximum": String(Self.maximumCapacity)]))
        }
        try validator.finish()
        guard let start, let end else { throw Refusal.malformed("Give a time or a pair.") }
        let day = asked ?? local.date
        let calendar = try await studyCalendar()
        let (rooms, lessons) = try await database.read { db in
            let store = TimetableStore(db)
            let rooms = Listing.rooms(
                try await store.rooms(), search: nil, type: type, building: building, sections: .building)
            let ids = rooms.flatMap { $0.items.map(\.id) }
            return (rooms, ids.isEmpty ? [] : try await store.lessons(rooms: ids, in: day...day))
        }
        let sections = rooms.compactMap { section -> Timetable.Section<FreeRooms.Found>? in
            let found = FreeRooms.find(
                in: section.items, lessons: lessons, on: day, from: start, to: end, capacity: capacity,
                calendar: calendar)
            return found.isEmpty ? nil : Timetable.Section(label: section.label, items: found)
        }
        let within = pair ?? pairs.slots.firstIndex { $0.start <= start && start < $0.end }.map { $0 + 1 }
        return FreeRoomsAnswer(date: day, start: start, end: end, pair: within, pairs: pairs, sections: sections)
    }
}
