import CampusHTTP
import Foundation
import Timetable

/// The pages of saved compound schedules: each one's week (as any schedule page), and the forms
/// that save favorites together under a name and delete a saved schedule.
struct MySchedulesPages: Sendable {
    let configuration: ServerConfiguration
    let myTimetable: MyTimetableService
    let builder: SchedulePageBuilder
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.savedSchedule) { request, account in
            let saved = try await mine.savedSchedule(try request.id("scheduleId"), of: account.user)
            var names: [String] = []
            for member in saved.members { names.append((try? await mine.name(of: member)) ?? member.id) }
            return .page(
                try await builder.page(
                    request, targets: MyTimetableService.targets(of: saved), title: saved.name,
                    subtitle: names.joined(separator: " · "), route: SiteRoutes.savedSchedule.path(saved.id),
                    feed: configuration.resolvedBaseURL + APIRoutes.personalCalendar.path(saved.token),
                    subgroup: 0, showSubgroups: false, term: nil, card: nil, favorite: nil))
        }
        pages.form(SiteRoutes.savedSchedules, SavedScheduleForm.self) { request, account, form in
            let members = (form.members ?? []).compactMap { value -> Favorite? in
                let parts = value.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let kind = Favorite.Kind(rawValue: String(parts[0])) else { return nil }
                return Favorite(kind: kind, id: String(parts[1]))
            }
            let saved = try await mine.addSavedSchedule(name: form.name ?? "", members: members, for: account.user)
            return .redirect(
                SiteRoutes.savedSchedule.path(saved.id), flash: request.t("“{name}” is saved.", ["name": saved.name]))
        }
        pages.form(SiteRoutes.savedScheduleInMine, InMyScheduleForm.self) { request, account, form in
            let included = form.included == "1"
            let saved = try await mine.setInMySchedule(included, try request.id("scheduleId"), for: account.user)
            return .redirect(
                SiteRoutes.myTimetable.path,
                flash: included
                    ? request.t("“{name}” is in your schedule.", ["name": saved.name])
                    : request.t("“{name}” is no longer in your schedule.", ["name": saved.name]))
        }
        pages.form(SiteRoutes.deleteSavedSchedule, CSRFForm.self) { request, account, _ in
            try await mine.deleteSavedSchedule(try request.id("scheduleId"), for: account.user)
            return .redirect(SiteRoutes.myTimetable.path, flash: request.t("The saved schedule is deleted."))
        }
    }
}

struct SavedScheduleForm: PageForm {
    var _csrf: String?
    var name: String?
    /// `group:151004`, `teacher:i-ivanov`, `room:12`: favorites checked to go together.
    var members: [String]?
}

struct InMyScheduleForm: PageForm {
    var _csrf: String?
    /// "1" to keep the saved schedule's lessons in my schedule, "0" to take them out.
    var included: String?
}
