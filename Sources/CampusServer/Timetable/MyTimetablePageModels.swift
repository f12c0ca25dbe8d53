import Foundation

/// Today at a glance (seed 000's "primary schedule", the web's answer to its widgets): my current
/// or next lesson with the time left, the rest of my day, and each favorite's nearest lesson. The
/// home page and `/today` show it.
struct Glance: Sendable {
    /// One schedule's now and next.
    struct Entry: Sendable {
        var name: String
        var url: String
        var current: SchedulePage.Lesson?
        var minutesLeft: String
        var next: SchedulePage.Lesson?
        var minutesUntil: String
        /// Nothing now and nothing ahead.
        var nothing: Bool
        /// A department: a list of teachers, no schedule of its own.
        var isList: Bool
    }

    /// My own schedule; nil without a group.
    var mine: Entry?
    var hasGroup: Bool
    /// The rest of today after the current or next lesson.
    var laterToday: [SchedulePage.Lesson]
    var hasLaterToday: Bool
    var favorites: [Entry]
    var hasFavorites: Bool
    /// The first tasks not done, by deadline.
    var tasks: [TaskRow]
    var hasTasks: Bool
}

/// `/today`: the glance alone, sized for a phone's home screen.
struct TodayPage: PageModel {
    static let template = "today"
    static let section: SiteSection? = .timetable

    var glance: Glance
}

/// `/timetable/mine`: my favorites and my calendar feed.
struct MyTimetablePage: PageModel {
    static let template = "my-timetable"
    static let section: SiteSection? = .timetable

    struct Favorite: Sendable {
        var kind: String
        var kindName: String
        var id: String
        var name: String
        var url: String
    }

    struct Reminder: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    var group: SchedulePage.Link?
    var favorites: [Favorite]
    var hasFavorites: Bool
    var calendarURL: String
    var reminders: [Reminder]

    struct Nickname: Sendable {
        var group: String
        var nickname: String
        var url: String
    }

    struct Colour: Sendable {
        var typeId: String
        var typeClass: String
        var name: String
        var abbreviation: String
        var colour: String
        var isOwn: Bool
    }

    var nicknames: [Nickname]
    var hasNicknames: Bool
    var colours: [Colour]

    struct Saved: Sendable {
        var name: String
        var url: String
        var deleteURL: String
        /// Whether its lessons are in my schedule, and the form that changes it.
        var inMySchedule: Bool
        var inMyScheduleURL: String
    }

    /// A favorite that can join a saved schedule (a group, a teacher or a room).
    struct Member: Sendable {
        var value: String
        var name: String
    }

    var saved: [Saved]
    var hasSaved: Bool
    var members: [Member]
    var canSave: Bool
    /// The display setting: subjects by their full names.
    var fullSubjectNames: Bool
}

/// The nickname form on a group's page.
struct NicknameBox: Sendable {
    var group: String
    var value: String
    var back: String
}

/// The star on a schedule page: keep it as a favorite, or stop.
struct FavoriteToggle: Sendable {
    var kind: String
    var id: String
    var isFavorite: Bool
    var back: String
}

/// `/timetable/mine/teachers`: the teachers of my schedule, each with what they teach me.
struct MyTeachersPage: PageModel {
    static let template = "my-teachers"
    static let section: SiteSection? = .timetable

    /// "Group 151004 · Subgroup 2".
    var subtitle: String
    var hasGroup: Bool
    var teachers: [DirectoryItem]
    var hasTeachers: Bool
}
