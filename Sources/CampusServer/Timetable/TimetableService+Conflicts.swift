import Accounts
import Foundation
import InputRules
import Storage
import Timetable

/// The timetable office's report of lessons that clash over a teacher, a room or a group.
extension TimetableService {
    struct ConflictReport: Sendable {
        var range: ClosedRange<LocalDate>
        /// All the conflicts found (the report may show fewer).
        var total: Int
        var conflicts: [Conflict]
    }

    /// The most conflicts one report lists.
    static let maximumConflicts = 500

    /// The conflicts from `from` to `to` (this week by default; at most ``maximumDays``), of the
    /// kinds asked for (all when none), the first `limit` of them; only admins (the timetable
    /// office) may read it.
    func conflicts(from: String?, to: String?, kinds: Set<Conflict.Kind>, limit: Int?, by actor: Account)
        async throws -> ConflictReport
    {
        guard actor.role == .admin else { throw Refusal.notAllowed("Only admins see the timetable's conflicts.") }
        let range = try range(from: from, to: to)
        if let limit, !(1...Self.maximumConflicts).contains(limit) {
            throw Refusal.invalid(
                FieldProblem(
                    field: "limit", detail: "must be 1 to {maximum}.", ["maximum": String(Self.maximumConflicts)]))
        }
        let calendar = try await studyCalendar()
        let lessons = try await database.read { db in try await TimetableStore(db).lessons(all: true, in: range) }
        let found = Conflict.find(
            in: lessons, range: range, calendar: calendar, kinds: kinds.isEmpty ? Set(Conflict.Kind.allCases) : kinds)
        return ConflictReport(
            range: range, total: found.count, conflicts: Array(found.prefix(limit ?? Self.maximumConflicts)))
    }
}
