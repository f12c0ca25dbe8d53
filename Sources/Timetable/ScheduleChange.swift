/// A change of one lesson occurrence that an import or sync brought: what was there (`before`)
/// and what is there now (`after`); an added occurrence has no `before`, a cancelled one no
/// `after`.
public struct ScheduleChange: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case added
        case cancelled
        /// Another date or time (its room and teachers may have changed too).
        case moved
        /// The same date and time in another room.
        case room
        /// The same date, time and room with other teachers.
        case teacher
    }

    /// One side of a change: when and where the occurrence is.
    public struct Slot: Sendable, Hashable {
        public var date: LocalDate
        public var start: WallTime
        public var end: WallTime
        /// Rooms' names as lessons show them ("604-5 к.").
        public var rooms: [String]
        /// Teachers' short names.
        public var teachers: [String]

        public init(date: LocalDate, start: WallTime, end: WallTime, rooms: [String], teachers: [String]) {
            self.date = date
            self.start = start
            self.end = end
            self.rooms = rooms
            self.teachers = teachers
        }

        public init(_ occurrence: Occurrence) {
            self.init(
                date: occurrence.date, start: occurrence.lesson.start, end: occurrence.lesson.end,
                rooms: occurrence.lesson.rooms.map(\.name).sorted(),
                teachers: occurrence.lesson.teachers.map(\.name).sorted())
        }
    }

    public var kind: Kind
    public var subject: String
    public var typeID: String?
    /// 0 is the whole group.
    public var subgroup: Int
    public var before: Slot?
    public var after: Slot?
    /// The ids of the lessons the occurrence belonged to before and after (``Lesson/id``).
    public var beforeLesson: Int64?
    public var afterLesson: Int64?

    public init(
        kind: Kind, subject: String, typeID: String?, subgroup: Int, before: Slot?, after: Slot?,
        beforeLesson: Int64? = nil, afterLesson: Int64? = nil
    ) {
        self.kind = kind
        self.subject = subject
        self.typeID = typeID
        self.subgroup = subgroup
        self.before = before
        self.after = after
        self.beforeLesson = beforeLesson
        self.afterLesson = afterLesson
    }

    /// The day the change is about: the occurrence's new date, or its old one if it is gone.
    public var date: LocalDate? { after?.date ?? before?.date }
}

extension ScheduleChange {
    /// The changes that turn one schedule's occurrences (`before`) into another's (`after`), both
    /// over the same days. Occurrences are paired as a person reads a changed timetable: one
    /// still there unchanged is no change; the same subject, type and subgroup on the same day at
    /// the same time is a change of room or teachers; on the same day at another time, or in the
    /// same week on another day, it moved; what is left was cancelled or added. Announcements are
    /// left out.
    public static func between(_ before: [Occurrence], _ after: [Occurrence]) -> [ScheduleChange] {
        var old = before.filter { !$0.lesson.isAnnouncement }.map(Side.init)
        var new = after.filter { !$0.lesson.isAnnouncement }.map(Side.init)
        var changes: [ScheduleChange] = []

        // Unchanged occurrences pair first, then each looser rule in turn.
        let rules: [(Side, Side) -> Bool] = [
            { $0.slot == $1.slot },
            { $0.slot.date == $1.slot.date && $0.slot.start == $1.slot.start },
            { $0.slot.date == $1.slot.date },
            { $0.slot.date.monday == $1.slot.date.monday },
        ]
        for (index, rule) in rules.enumerated() {
            var unpaired: [Side] = []
            for side in old {
                if let match = new.firstIndex(where: { $0.lesson == side.lesson && rule(side, $0) }) {
                    let counterpart = new.remove(at: match)
                    if index > 0 { changes.append(side.change(to: counterpart)) }
                } else {
                    unpaired.append(side)
                }
            }
            old = unpaired
        }
        changes += old.map { $0.change(kind: .cancelled, before: $0.slot, after: nil) }
        changes += new.map { $0.change(kind: .added, before: nil, after: $0.slot) }
        return changes.sorted { a, b in
            let left = (a.date?.dayNumber ?? 0, (a.after ?? a.before)?.start.minutes ?? 0, a.subgroup, a.subject)
            let right = (b.date?.dayNumber ?? 0, (b.after ?? b.before)?.start.minutes ?? 0, b.subgroup, b.subject)
            return left < right
        }
    }

    /// An occurrence as changes compare it: which lesson (subject, type, subgroup) and its slot.
    private struct Side {
        struct Lesson: Hashable {
            var subject: String
            var typeID: String?
            var subgroup: Int
        }

        var lesson: Lesson
        var slot: Slot
        var id: Int64

        init(_ occurrence: Occurrence) {
            id = occurrence.lesson.id
            lesson = Lesson(
                subject: occurrence.lesson.subject, typeID: occurrence.lesson.typeID,
                subgroup: occurrence.lesson.subgroup)
            slot = Slot(occurrence)
        }

        func change(kind: Kind, before: Slot?, after: Slot?, to new: Side? = nil) -> ScheduleChange {
            ScheduleChange(
                kind: kind, subject: lesson.subject, typeID: lesson.typeID, subgroup: lesson.subgroup, before: before,
                after: after, beforeLesson: before == nil ? nil : id, afterLesson: new?.id ?? (after == nil ? nil : id))
        }

        func change(to new: Side) -> ScheduleChange {
            let kind: Kind =
                slot.date != new.slot.date || slot.start != new.slot.start || slot.end != new.slot.end
                ? .moved : slot.rooms != new.slot.rooms ? .room : .teacher
            return change(kind: kind, before: slot, after: new.slot, to: new)
        }
    }
}
