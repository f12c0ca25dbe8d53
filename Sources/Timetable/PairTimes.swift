/// The institution's pairs: the numbered time slots of a study day ("the third pair" is 12:25–13:45
/// at BSUIR). Lessons that start at a pair's start take its number; free rooms can be asked for by
/// pair.
public struct PairTimes: Sendable, Hashable {
    public struct Slot: Sendable, Hashable {
        public var start: WallTime
        public var end: WallTime

        public init(start: WallTime, end: WallTime) {
            self.start = start
            self.end = end
        }
    }

    /// The slots in order: pair 1 is the first.
    public var slots: [Slot]

    public init(slots: [Slot]) {
        self.slots = slots
    }

    /// BSUIR's eight pairs, as its IIS files give them.
    public static let bsuir = PairTimes(
        slots: [
            (9, 0, 10, 20), (10, 35, 11, 55), (12, 25, 13, 45), (14, 0, 15, 20), (15, 50, 17, 10), (17, 25, 18, 45),
            (19, 0, 20, 20), (20, 40, 22, 0),
        ].compactMap { startHour, startMinute, endHour, endMinute in
            guard let start = WallTime(hour: startHour, minute: startMinute),
                let end = WallTime(hour: endHour, minute: endMinute)
            else { return nil }
            return Slot(start: start, end: end)
        })

    /// The slot of pair `number` (1 for the first); nil when there is no such pair.
    public func slot(_ number: Int) -> Slot? {
        slots.indices.contains(number - 1) ? slots[number - 1] : nil
    }

    /// The number of the pair a lesson starting at `start` takes: the pair that starts then, or
    /// nil when none does.
    public func number(startingAt start: WallTime) -> Int? {
        slots.firstIndex { $0.start == start }.map { $0 + 1 }
    }

    /// The number of the pair a lesson starting at `start` is in: the pair that starts then, else
    /// the pair whose time holds `start` (a lesson that starts a little late); nil when none does.
    public func number(of start: WallTime) -> Int? {
        number(startingAt: start) ?? slots.firstIndex { $0.start <= start && start < $0.end }.map { $0 + 1 }
    }

    /// "09:00-10:20 10:35-11:55 …": slots in order, each after the one before; nil for anything
    /// else.
    public init?(text: String) {
        var slots: [Slot] = []
        for part in text.split(separator: " ") {
            let ends = part.split(separator: "-")
            guard ends.count == 2, let start = WallTime(ends[0]), let end = WallTime(ends[1]),
                start < end, slots.last.map({ $0.end <= start }) ?? true
            else { return nil }
            slots.append(Slot(start: start, end: end))
        }
        guard !slots.isEmpty, slots.count <= 16 else { return nil }
        self.slots = slots
    }

    /// The form ``init(text:)`` reads.
    public var text: String {
        slots.map { "\($0.start)-\($0.end)" }.joined(separator: " ")
    }
}
