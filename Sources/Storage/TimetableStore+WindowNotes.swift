import SQLKit
import Timetable

/// Notes on free slots (seed 004's window messages), kept per group.
extension TimetableStore {
    /// Replaces the notes of each group named in `notes`.
    func storeWindowNotes(_ notes: [String: [WindowNote]]) async throws {
        for (group, groupNotes) in notes.sorted(by: { $0.key < $1.key }) {
            try await db.raw("DELETE FROM window_notes WHERE group_name = \(bind: group)").run()
            for note in groupNotes {
                let weeks = note.weeks.reduce(0) { $0 | (1 << $1) }
                try await db.raw(
                    """
                    INSERT INTO window_notes (group_name, weekday, weeks, start_minute, end_minute, text)
                    VALUES (\(bind: group), \(bind: note.weekday.rawValue), \(bind: weeks), \(bind: note.start.minutes),
                    \(bind: note.end.minutes), \(bind: note.text))
                    """
                ).run()
            }
        }
    }

    /// Every group's notes on free slots.
    public func windowNotes() async throws -> [String: [WindowNote]] {
        var notes: [String: [WindowNote]] = [:]
        for row in try await db.raw(
            "SELECT group_name, weekday, weeks, start_minute, end_minute, text FROM window_notes"
        ).all() {
            guard let weekday = Weekday(rawValue: try row.decode(column: "weekday", as: Int.self)),
                let start = WallTime(minutes: try row.decode(column: "start_minute", as: Int.self)),
                let end = WallTime(minutes: try row.decode(column: "end_minute", as: Int.self))
            else { continue }
            let bits = try row.decode(column: "weeks", as: Int.self)
            notes[try row.decode(column: "group_name", as: String.self), default: []].append(
                WindowNote(
                    weekday: weekday, weeks: Set((1...8).filter { bits & (1 << $0) != 0 }), start: start, end: end,
                    text: try row.decode(column: "text", as: String.self)))
        }
        return notes
    }
}
