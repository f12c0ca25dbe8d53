import Accounts
import CampusHTTP
import Foundation
import Localization
import Storage
import Timetable

/// A teacher's card on their page: what students say (counts, the majority, descriptions), the
/// visitor's own answer, and for admins the hiding of descriptions.
struct TeacherCardPages: Sendable {
    let myTimetable: MyTimetableService
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.teacherCard, TeacherCardForm.self) { request, account, form in
            let urlID = try request.parameter("urlId")
            let answer = try await mine.answerCard(
                teacher: urlID, description: form.description,
                attendance: form.attendance.flatMap(TeacherCard.Attendance.init(rawValue:)),
                automaticPass: form.automaticPass.flatMap { $0 == "yes" ? true : $0 == "no" ? false : nil },
                for: account.user)
            return .redirect(
                SiteRoutes.teacher.path(urlID),
                flash: answer.hidden && answer.description != nil
                    ? request.t("Your answer is saved; your description stays hidden until an admin shows it.")
                    : request.t("Your answer is saved."))
        }
        pages.form(SiteRoutes.deleteTeacherCardAnswer, CSRFForm.self) { request, account, _ in
            let urlID = try request.parameter("urlId")
            try await mine.removeCardAnswer(teacher: urlID, for: account.user)
            return .redirect(SiteRoutes.teacher.path(urlID), flash: request.t("Your answer is taken back."))
        }
        pages.form(SiteRoutes.moderateTeacherCardAnswer, ModerationForm.self) { request, account, form in
            let answer = try await mine.moderateCardAnswer(
                try request.id("answerId"), hidden: form.hidden == "1", by: account.user)
            return .redirect(
                SiteRoutes.teacher.path(answer.teacher),
                flash: answer.hidden
                    ? request.t("The description is hidden.") : request.t("The description shows again."))
        }
    }

    /// The card section of a teacher's page.
    static func card(
        _ summary: TeacherCardSummary, imported: TeacherCard?, answer: TeacherCardAnswer?, teacher: String,
        user: Account?, _ t: Translator
    ) -> SchedulePage.Card {
        let attendance: String? =
            switch summary.majorityAttendance {
            case .yes: t("Marks attendance")
            case .no: t("Does not mark attendance")
            case .sometimes: t("Sometimes marks attendance")
            case nil: nil
            }
        let counts = [
            t.plural("{count} answer", "{count} answers", summary.answers),
            t(
                "attendance: yes {yes}, no {no}, sometimes {sometimes}",
                [
                    "yes": t.number(summary.attendance[.yes] ?? 0), "no": t.number(summary.attendance[.no] ?? 0),
                    "sometimes": t.number(summary.attendance[.sometimes] ?? 0),
                ]),
            t(
                "automatic pass: yes {yes}, no {no}",
                ["yes": t.number(summary.automaticPassYes), "no": t.number(summary.automaticPassNo)]),
        ].joined(separator: " · ")
        let isAdmin = user?.role == .admin
        let descriptions = summary.descriptions.filter { !$0.hidden || isAdmin }.map { description in
            SchedulePage.Card.Description(
                text: description.text, hidden: description.hidden,
                moderationURL: description.id.map { SiteRoutes.moderateTeacherCardAnswer.path($0) } ?? "",
                canModerate: isAdmin && description.id != nil)
        }
        func option(_ value: String, _ label: String, _ selected: Bool) -> SelectOption {
            .init(value: value, label: label, selected: selected)
        }
        let form = user.map { _ in
            SchedulePage.Card.AnswerForm(
                url: SiteRoutes.teacherCard.path(teacher), deleteURL: SiteRoutes.deleteTeacherCardAnswer.path(teacher),
                hasAnswer: answer != nil, description: answer?.description ?? "",
                descriptionHidden: answer?.hidden == true,
                attendance: [
                    option("", t("Not said"), answer?.attendance == nil),
                    option("yes", t("Marks attendance"), answer?.attendance == .yes),
                    option("no", t("Does not mark attendance"), answer?.attendance == .no),
                    option("sometimes", t("Sometimes marks attendance"), answer?.attendance == .sometimes),
                ],
                automaticPass: [
                    option("", t("Not said"), answer?.automaticPass == nil),
                    option("yes", t("Automatic pass possible"), answer?.automaticPass == true),
                    option("no", t("No automatic pass"), answer?.automaticPass == false),
                ])
        }
        return SchedulePage.Card(
            subject: imported?.subject, attendance: attendance,
            automatic: summary.majorityAutomaticPass.map { $0 ? t("Automatic pass possible") : t("No automatic pass") },
            automaticYes: summary.majorityAutomaticPass ?? false, counts: counts, descriptions: descriptions,
            hasDescriptions: !descriptions.isEmpty, form: form)
    }
}

struct TeacherCardForm: PageForm {
    var _csrf: String?
    var description: String?
    /// yes, no or sometimes; empty when not said.
    var attendance: String?
    /// yes or no; empty when not said.
    var automaticPass: String?
}

struct ModerationForm: PageForm {
    var _csrf: String?
    /// "1" to hide, "0" to show.
    var hidden: String?
}
