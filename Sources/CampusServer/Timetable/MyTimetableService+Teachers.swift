import Accounts
import Foundation
import Storage
import Timetable

/// The teachers of my schedule (seed 000's "current teachers").
extension MyTimetableService {
    /// A teacher of my schedule with the subjects they teach me.
    struct MyTeacher: Sendable {
        var teacher: Teacher
        var subjects: [TaughtSubjects.Subject]
    }

    /// The teachers of the user's own schedule: their group's lessons for the whole group and for
    /// their subgroup, exams included, by name. 404 without a group, or when the timetable has no
    /// longer the group.
    func teachers(of user: Account) async throws -> [MyTeacher] {
        let (group, filter) = try ownGroup(of: user)
        let lessons = try await timetable.lessons(of: [group], in: nil).filter { filter.admits($0) }
        let taught = TaughtSubjects.of(lessons)
        let known = try await directory.teachers(urlIDs: Set(taught.map(\.teacher.urlID)))
        return taught.compactMap { entry in
            known[entry.teacher.urlID].map { MyTeacher(teacher: $0, subjects: entry.subjects) }
        }
    }
}
