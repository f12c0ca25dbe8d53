import Accounts
import CampusHTTP
import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Localization
import NIOCore
import Storage
import Timetable

/// The pages of what is personal in a timetable: today at a glance (`/today`, and the home
/// page's part), my favorites and my calendar feed (`/timetable/mine`), the star on schedule
/// pages, and the web app manifest that lets a phone keep `/today` on its home screen.
struct MyTimetablePages: Sendable {
    let configuration: ServerConfiguration
    let directory: TimetableDirectory
    let myTimetable: MyTimetableService
    let now: @Sendable () -> Date
    let timetable: TimetableService
    var mine: MyTimetableService { myTimetable }

    /// The most favorites the glance shows (each is a schedule read).
    static let glanceFavorites = 12
    /// The most tasks the glance shows.
    static let glanceTasks = 3
    /// The reminders a feed offers, in minutes before a lesson.
    static let reminderChoices = [5, 10, 15, 30, 60, 1440]

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.today) { request, account in
            .page(TodayPage(glance: try await glance(for: account.user, request.t)))
        }
        pages.signedInPage(SiteRoutes.myTimetable, myTimetable)
        pages.form(SiteRoutes.favorites, FavoriteForm.self, favorite)
        pages.form(SiteRoutes.myCalendar, CalendarForm.self, calendar)
        pages.form(SiteRoutes.displaySettings, DisplayForm.self, display)
        let renderer = pages.renderer
        pages.resource(SiteRoutes.manifest) { request, _ in manifest(renderer.translator(request), request: request) }
    }

    // MARK: Today at a glance

    func glance(for user: Account, _ t: Translator) async throws -> Glance {
        let text = ScheduleText(t: t)
        let now = LocalDateTime(now(), in: timetable.timeZone)
        var mine: Glance.Entry?
        var later: [SchedulePage.Lesson] = []
        let nicknames = try await self.mine.nicknames(of: user)
        let display = try await self.mine.displaySettings(of: user)
        if let (targets, filter) = try? await self.mine.targets(of: user) {
            do {
                let name = user.group.map { group in
                    [nicknames[group], t("Group {name}", ["name": group])].compactMap { $0 }.joined(separator: " · ")
                }
                // The notes on the lessons shown only: today's and the next one.
                let found = try await timetable.nowAndNext(of: targets, filter: filter)
                let today = try await timetable.schedule(of: targets, in: now.date...now.date, filter: filter)
                let shownIDs = Set(
                    (found.0.current + [found.0.next].compactMap { $0 } + (today.days.first?.occurrences ?? []))
                        .map(\.lesson.id))
                let notes = try await self.mine.notes(of: user, lessonIDs: Array(shownIDs))
                let (entry, shown) = self.entry(
                    found, targets: targets, name: name ?? "", url: SiteRoutes.timetable.path, now: now, text: text,
                    notes: notes, display: display)
                mine = entry
                later =
                    today.days.first?.occurrences
                    .filter { $0.start > now && !shown.contains($0) }
                    .map {
                        SchedulePageBuilder.lesson(
                            $0, types: today.types, now: now, showGroups: SchedulePageBuilder.showsGroups(targets),
                            text: text, notes: notes,
                            noteBack: SiteRoutes.today.path, display: display)
                    }
                    ?? []
            } catch let refusal as Refusal where refusal.reason == .notFound {
                // The group left the timetable: the glance shows no schedule of mine.
            }
        }
        var favorites: [Glance.Entry] = []
        for view in try await self.mine.favorites(of: user, limit: Self.glanceFavorites) {
            let url = Self.url(of: view.favorite)
            let name = Self.name(view, nicknames)
            guard let target = MyTimetableService.target(of: view.favorite) else {
                favorites.append(
                    Glance.Entry(
                        name: name, url: url, current: nil, minutesLeft: "", next: nil, minutesUntil: "",
                        nothing: false, isList: true))
                continue
            }
            if let (entry, _) = try? await entry(
                [target], name: name, url: url, ScheduleFilter(), now: now, text: text, display: display)
            {
                favorites.append(entry)
            }
        }
        let tasks = try await self.mine.tasks(of: user).prefix { !$0.done }.prefix(Self.glanceTasks)
            .map { MyTasksPages(myTimetable: myTimetable, now: self.now, timetable: timetable).row($0, t) }
        return Glance(
            mine: mine, hasGroup: user.group != nil, laterToday: later, hasLaterToday: !later.isEmpty,
            favorites: favorites, hasFavorites: !favorites.isEmpty, tasks: tasks, hasTasks: !tasks.isEmpty)
    }

    /// A schedule's now and next, and the occurrences it shows.
    private func entry(
        _ targets: [TimetableService.Target], name: String, url: String, _ filter: ScheduleFilter,
        now: LocalDateTime, text: ScheduleText, display: DisplaySettings
    ) async throws -> (Glance.Entry, Set<Occurrence>) {
        entry(
            try await timetable.nowAndNext(of: targets, filter: filter), targets: targets, name: name,
            url: url, now: now, text: text, display: display)
    }

    /// An entry of what a schedule has now and next.
    private func entry(
        _ found: (NowAndNext, [String: LessonType]), targets: [TimetableService.Target], name: String, url: String,
        now: LocalDateTime, text: ScheduleText, notes: [LessonNote] = [], display: DisplaySettings
    ) -> (Glance.Entry, Set<Occurrence>) {
        let (found, types) = found
        func lesson(_ occurrence: Occurrence) -> SchedulePage.Lesson {
            SchedulePageBuilder.lesson(
                occurrence, types: types, now: now, showGroups: SchedulePageBuilder.showsGroups(targets), text: text,
                notes: notes, display: display)
        }
        var next = found.next.map(lesson)
        if let occurrence = found.next { next?.when = text.when(occurrence.date, today: now.date) }
        let entry = Glance.Entry(
            name: name, url: url, current: found.current.first.map(lesson),
            minutesLeft: text.duration(found.minutesLeft ?? 0), next: next,
            minutesUntil: text.duration(found.minutesUntilNext ?? 0),
            nothing: found.current.isEmpty && found.next == nil, isList: false)
        return (entry, Set(found.current + [found.next].compactMap { $0 }))
    }

    /// A favorite as the user reads it: a group with their nickname for it.
    static func name(_ view: MyTimetableService.FavoriteView, _ nicknames: [String: String]) -> String {
        view.favorite.kind == .group ? PersonalTouches.groupName(view.name, nicknames: nicknames) : view.name
    }

    /// Where a favorite's page is.
    static func url(of favorite: Favorite) -> String {
        switch favorite.kind {
        case .group: SiteRoutes.group.path(favorite.id)
        case .teacher: SiteRoutes.teacher.path(favorite.id)
        case .room: Int64(favorite.id).map { SiteRoutes.room.path($0) } ?? SiteRoutes.rooms.path
        case .department: TimetablePages.departmentURL(favorite.id)
        }
    }

    // MARK: My favorites and my calendar feed

    @Sendable func myTimetable(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let t = request.t
        let user = account.user
        let favorites = try await mine.favorites(of: user)
        let feed = try await mine.calendarFeed(of: user)
        let nicknames = try await mine.nicknames(of: user)
        let colours = try await mine.lessonColours(of: user)
        let types = try await directory.lessonTypes()
        let saved = try await mine.savedSchedules(of: user)
        let display = try await mine.displaySettings(of: user)
        let members = favorites.filter { $0.favorite.kind != .department }.map {
            MyTimetablePage.Member(
                value: "\($0.favorite.kind.rawValue):\($0.favorite.id)", name: Self.name($0, nicknames))
        }
        let none = MyTimetablePage.Reminder(value: "", label: t("No reminders"), selected: feed.reminderMinutes == nil)
        return .page(
            MyTimetablePage(
                group: user.group.map { .init(name: $0, url: SiteRoutes.group.path($0)) },
                favorites: favorites.map {
                    .init(
                        kind: $0.favorite.kind.rawValue, kindName: Self.kindName($0.favorite.kind, t),
                        id: $0.favorite.id, name: Self.name($0, nicknames), url: Self.url(of: $0.favorite))
                },
                hasFavorites: !favorites.isEmpty,
                calendarURL: configuration.resolvedBaseURL + APIRoutes.personalCalendar.path(feed.token),
                reminders: [none]
                    + Self.reminderChoices.map { minutes in
                        .init(
                            value: String(minutes), label: ScheduleText(t: t).duration(minutes),
                            selected: feed.reminderMinutes == minutes)
                    },
                nicknames: nicknames.sorted { $0.key < $1.key }.map {
                    .init(group: $0.key, nickname: $0.value, url: SiteRoutes.group.path($0.key))
                },
                hasNicknames: !nicknames.isEmpty,
                colours: types.map { ScheduleText(t: t).lessonType($0) }.map { type in
                    .init(
                        typeId: type.id, typeClass: SchedulePageBuilder.typeClass(type), name: type.name,
                        abbreviation: type.abbreviation, colour: colours[type.id] ?? type.colour,
                        isOwn: colours[type.id] != nil)
                },
                saved: saved.map {
                    .init(
                        name: $0.name, url: SiteRoutes.savedSchedule.path($0.id),
                        deleteURL: SiteRoutes.deleteSavedSchedule.path($0.id), inMySchedule: $0.inMySchedule,
                        inMyScheduleURL: SiteRoutes.savedScheduleInMine.path($0.id))
                },
                hasSaved: !saved.isEmpty,
                members: members, canSave: members.count >= 2, fullSubjectNames: display.fullSubjectNames))
    }

    static func kindName(_ kind: Favorite.Kind, _ t: Translator) -> String {
        switch kind {
        case .group: t("Group", context: "favorite")
        case .teacher: t("Teacher", context: "favorite")
        case .room: t("Room", context: "favorite")
        case .department: t("Department", context: "favorite")
        }
    }

    @Sendable func favorite(_ request: PageRequest, _ account: Authenticated, _ form: FavoriteForm) async throws
        -> PageAnswer
    {
        guard let kind = Favorite.Kind(rawValue: form.kind) else {
            throw Refusal.invalid(
                FieldProblem(field: "kind", detail: "Choose a group, a teacher, a room or a department."))
        }
        let favorite = Favorite(kind: kind, id: form.id)
        let back = SignInPages.safeNext(form.back)
        if form.remove == "1" {
            try await mine.removeFavorite(favorite, for: account.user)
            return .redirect(back, flash: request.t("Removed from your favorites."))
        }
        _ = try await mine.addFavorite(favorite, for: account.user)
        return .redirect(back, flash: request.t("Added to your favorites."))
    }

    /// How the user's pages show lessons: full subject names or abbreviations.
    @Sendable func display(_ request: PageRequest, _ account: Authenticated, _ form: DisplayForm) async throws
        -> PageAnswer
    {
        var settings = try await mine.displaySettings(of: account.user)
        settings.fullSubjectNames = form.fullSubjectNames == "1"
        try await mine.saveDisplaySettings(settings, for: account.user)
        return .redirect(SiteRoutes.myTimetable.path, flash: request.t("Settings saved."))
    }

    @Sendable func calendar(_ request: PageRequest, _ account: Authenticated, _ form: CalendarForm) async throws
        -> PageAnswer
    {
        var minutes: Int?
        if let text = form.reminderMinutes, !text.isEmpty {
            guard let value = Int(text) else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "reminderMinutes", detail: "A reminder comes 0 to {maximum} minutes before a lesson.",
                        ["maximum": String(ICalendar.reminderRange.upperBound)]))
            }
            minutes = value
        }
        let newAddress = form.newAddress == "1"
        _ = try await mine.changeCalendarFeed(of: account.user, reminderMinutes: .some(minutes), newAddress: newAddress)
        let t = request.t
        return .redirect(
            SiteRoutes.myTimetable.path,
            flash: newAddress
                ? t("Your calendar has a new address; subscribe to it again.")
                : t("Your calendar's reminders are saved."))
    }

    // MARK: The web app manifest

    func manifest(_ t: Translator, request: Request) -> Response {
        struct Manifest: Encodable {
            struct Icon: Encodable {
                var src: String
                var sizes: String
                var type: String
            }
            var name: String
            var shortName: String
            var startURL: String
            var scope: String
            var display: String
            var lang: String
            var icons: [Icon]

            enum CodingKeys: String, CodingKey {
                case name, scope, display, lang, icons
                case shortName = "short_name"
                case startURL = "start_url"
            }
        }
        let manifest = Manifest(
            name: t("Campus · today"), shortName: t("Today", context: "app"), startURL: SiteRoutes.today.path,
            scope: SiteRoutes.home.path, display: "standalone", lang: t.code,
            icons: [
                .init(src: StaticFiles.link(SiteRoutes.icon), sizes: "any", type: "image/svg+xml"),
                .init(src: StaticFiles.link(SiteRoutes.shareIcon), sizes: "512x512", type: "image/png"),
            ])
        let body = (try? JSONEncoder().encode(manifest)) ?? Data("{}".utf8)
        return .revalidated(ByteBuffer(data: body), contentType: "application/manifest+json", for: request)
    }
}

struct FavoriteForm: PageForm {
    var _csrf: String?
    var kind: String
    var id: String
    /// "1" to stop keeping it.
    var remove: String?
    var back: String?
}

struct DisplayForm: PageForm {
    var _csrf: String?
    /// "1" for full subject names; absent (an unticked box) for abbreviations.
    var fullSubjectNames: String?
}

struct CalendarForm: PageForm {
    var _csrf: String?
    /// Empty for no reminders.
    var reminderMinutes: String?
    /// "1" for a new address.
    var newAddress: String?
}
