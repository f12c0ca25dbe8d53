/// Two lessons that need one teacher, one room or one group at the same time on a day: what a
/// timetable office wants to find before students do. Announcements hold nobody. A lesson
/// several groups share is one lesson; two lessons that are the same session (same subject, type,
/// times and teachers in the same place, as two sources may write one lecture) are not a conflict
/// either. The same lecture written in two rooms at once is: its teacher cannot be in both.
public struct Conflict: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case teacher, room, group
    }

    public var kind: Kind
    /// The teacher's URL id, the room's id, or the group's name.
    public var key: String
    /// The teacher's short name, the room's display name, or the group's name.
    public var name: String
    public var first: Occurrence
    public var second: Occurrence

    public init(kind: Kind, key: String, name: String, first: Occurrence, second: Occurrence) {
        self.kind = kind
        self.key = key
        self.name = name
        self.first = first
        self.second = second
    }

    /// Every conflict of `lessons` in `range`, by date, start, kind and name; for each pair of
    /// lessons that clash over several teachers, rooms or groups, one conflict per teacher, room
    /// or group. Two subgroups of one group at the same time are not a conflict, nor are two lessons
    /// of one subject and type with other teachers (a group split by language); otherwise a lesson
    /// for the whole group (subgroup 0) clashes with any other of that group.
    public static func find(
        in lessons: [Lesson], range: ClosedRange<LocalDate>, calendar: StudyCalendar,
        kinds: Set<Kind> = Set(Kind.allCases)
    ) -> [Conflict] {
        struct Holder: Hashable {
            var kind: Kind
            var key: String
        }
        var names: [Holder: String] = [:]
        var byDay: [LocalDate: [Holder: [Lesson]]] = [:]
        for lesson in lessons where !lesson.isAnnouncement {
            var holders: [Holder] = []
            if kinds.contains(.teacher) {
                for teacher in lesson.teachers {
                    let holder = Holder(kind: .teacher, key: teacher.urlID)
                    names[holder] = teacher.name
                    holders.append(holder)
                }
            }
            if kinds.contains(.room) {
                for room in lesson.rooms {
                    let holder = Holder(kind: .room, key: String(room.id))
                    names[holder] = room.name
                    holders.append(holder)
                }
            }
            if kinds.contains(.group) {
                for group in lesson.groups {
                    let holder = Holder(kind: .group, key: group)
                    names[holder] = group
                    holders.append(holder)
                }
            }
            guard !holders.isEmpty else { continue }
            for day in lesson.days(in: range, calendar: calendar) {
                for holder in holders { byDay[day, default: [:]][holder, default: []].append(lesson) }
            }
        }
        var found: [Conflict] = []
        for (day, holders) in byDay {
            for (holder, held) in holders where held.count > 1 {
                let sorted = held.sorted { ($0.start, $0.end, $0.id) < ($1.start, $1.end, $1.id) }
                for (index, first) in sorted.enumerated() {
                    for second in sorted[(index + 1)...] {
                        guard second.start < first.end else { break }
                        guard !sameSession(first, second) else { continue }
                        if holder.kind == .group, splits(first, second) { continue }
                        found.append(
                            Conflict(
                                kind: holder.kind, key: holder.key, name: names[holder] ?? holder.key,
                                first: Occurrence(lesson: first, date: day),
                                second: Occurrence(lesson: second, date: day)))
                    }
                }
            }
        }
        return found.sorted {
            ($0.first.date, $0.first.lesson.start, $0.kind.order, $0.name, $0.first.lesson.id, $0.second.lesson.id)
                < (
                    $1.first.date, $1.first.lesson.start, $1.kind.order, $1.name, $1.first.lesson.id,
                    $1.second.lesson.id
                )
        }
    }

    /// Two lessons a group takes in parts: different subgroups, or the same subject and type with
    /// other teachers (the group split by language, as IIS writes foreign-language classes; when
    /// a side names no teacher, who teaches it is unknown and it may be such a part). The same
    /// teachers cannot teach two parts at once: a whole group in two rooms with them is a group in
    /// two places.
    static func splits(_ a: Lesson, _ b: Lesson) -> Bool {
        (a.subgroup != 0 && b.subgroup != 0 && a.subgroup != b.subgroup)
            || (a.subject == b.subject && a.typeID == b.typeID
                && (a.teachers.isEmpty || b.teachers.isEmpty || teachers(of: a) != teachers(of: b)))
    }

    /// One session written twice: the same subject and type at the same times by the same
    /// teachers, in the same place — the rooms of one are among the other's (a source that names
    /// no room, or one room of a lecture held in two, says nothing against it). In rooms that are
    /// not, it is two sessions at once: a teacher, and a group they share, in two places.
    static func sameSession(_ a: Lesson, _ b: Lesson) -> Bool {
        guard a.id != b.id else { return true }
        guard
            a.subject == b.subject && a.typeID == b.typeID && a.start == b.start && a.end == b.end
                && teachers(of: a) == teachers(of: b)
        else { return false }
        let (roomsA, roomsB) = (Set(a.rooms.map(\.id)), Set(b.rooms.map(\.id)))
        return roomsA.isSubset(of: roomsB) || roomsB.isSubset(of: roomsA)
    }

    private static func teachers(of lesson: Lesson) -> Set<String> { Set(lesson.teachers.map(\.urlID)) }
}

extension Conflict.Kind {
    var order: Int { Self.allCases.firstIndex(of: self) ?? 0 }
}
