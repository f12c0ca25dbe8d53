import Accounts
import CampusHTTP
import Foundation
import Hummingbird
import NIOCore
import Storage
import Timetable

/// The pages of a user's nicknames for groups and colours for lesson types: the forms, and the
/// style sheet that colours their lessons their way.
struct MyTouchesPages: Sendable {
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    var mine: MyTimetableService { myTimetable }

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.nicknames, NicknameForm.self, nickname)
        pages.form(SiteRoutes.lessonColours, LessonColourForm.self, colour)
        let renderer = pages.renderer
        pages.resource(SiteRoutes.myLessonTypeStyles) { request, _ in
            try await styles(for: try await renderer.visitor(request).user)
        }
    }

    @Sendable func nickname(_ request: PageRequest, _ account: Authenticated, _ form: NicknameForm) async throws
        -> PageAnswer
    {
        let back = SignInPages.safeNext(form.back)
        let t = request.t
        if form.remove == "1" || (form.nickname ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
            try await mine.removeNickname(group: form.group, for: account.user)
            return .redirect(back, flash: t("The nickname is removed."))
        }
        _ = try await mine.setNickname(form.nickname ?? "", group: form.group, for: account.user)
        return .redirect(back, flash: t("The nickname is saved; only you see it."))
    }

    @Sendable func colour(_ request: PageRequest, _ account: Authenticated, _ form: LessonColourForm) async throws
        -> PageAnswer
    {
        let t = request.t
        if form.remove == "1" {
            try await mine.removeLessonColour(type: form.typeId, for: account.user)
            return .redirect(SiteRoutes.myTimetable.path, flash: t("The institution's colour is back."))
        }
        _ = try await mine.setLessonColour(form.colour ?? "", type: form.typeId, for: account.user)
        return .redirect(SiteRoutes.myTimetable.path, flash: t("The colour is saved; only your pages show it."))
    }

    /// The user's colours over the institution's (the layout links this after its style sheet).
    func styles(for user: Account?) async throws -> Response {
        var css = ""
        if let user {
            let colours = try await mine.lessonColours(of: user)
            for type in try await directory.lessonTypes() {
                guard let colour = colours[type.id], PersonalTouches.isColour(colour) else { continue }
                css += ".\(SchedulePageBuilder.typeClass(type)) { --type-colour: \(colour); }\n"
            }
        }
        return Response(
            status: .ok, headers: [.contentType: "text/css; charset=utf-8", .cacheControl: "private, no-cache"],
            body: ResponseBody(byteBuffer: ByteBuffer(string: css)))
    }
}

struct NicknameForm: PageForm {
    var _csrf: String?
    var group: String
    var nickname: String?
    /// "1" to remove it.
    var remove: String?
    var back: String?
}

struct LessonColourForm: PageForm {
    var _csrf: String?
    var typeId: String
    var colour: String?
    /// "1" to go back to the institution's colour.
    var remove: String?
}
