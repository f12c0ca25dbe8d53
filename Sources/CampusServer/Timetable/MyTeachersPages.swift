import CampusHTTP
import Foundation
import InputRules
import Localization
import Storage
import Timetable

/// My teachers (`/timetable/mine/teachers`): who teaches my group and subgroup, and what, each
/// linking to their schedule and card.
struct MyTeachersPages: Sendable {
    let myTimetable: MyTimetableService
    let timetable: TimetableService
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.myTeachers, page)
    }

    @Sendable func page(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let t = request.t
        let user = account.user
        guard let group = user.group else {
            return .page(MyTeachersPage(subtitle: "", hasGroup: false, teachers: [], hasTeachers: false))
        }
        var found: [MyTimetableService.MyTeacher] = []
        do {
            found = try await mine.teachers(of: user)
        } catch let refusal as Refusal where refusal.reason == .notFound {
            // The group left the timetable: nobody teaches it.
        }
        let display = try await mine.displaySettings(of: user)
        let types = try await timetable.lessonTypes()
        var parts = [t("Group {name}", ["name": group])]
        if user.subgroup != 0 { parts.append(t("Subgroup {number}", ["number": String(user.subgroup)])) }
        let teachers = found.map { item in
            DirectoryItem(
                name: item.teacher.fullName, url: SiteRoutes.teacher.path(item.teacher.urlID),
                detail: Self.detail(item.subjects, types: types, display: display))
        }
        return .page(
            MyTeachersPage(
                subtitle: parts.joined(separator: " · "), hasGroup: true, teachers: teachers,
                hasTeachers: !teachers.isEmpty))
    }

    /// "ВТ (ЛК, ЛР) · РиАТ (ЛК)": the subjects as the user chose to see them, with the kinds of
    /// lesson as the timetable abbreviates them.
    static func detail(
        _ subjects: [TaughtSubjects.Subject], types: [String: LessonType], display: DisplaySettings
    ) -> String {
        subjects.map { subject in
            let name = display.subject(subject.name, fullName: subject.fullName)
            let kinds = subject.typeIDs.map { types[$0]?.abbreviation ?? $0 }
            return kinds.isEmpty ? name : "\(name) (\(kinds.joined(separator: ", ")))"
        }
        .joined(separator: " · ")
    }
}
