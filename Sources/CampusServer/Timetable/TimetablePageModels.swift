import Foundation
import Timetable

/// The models of the timetable pages (templates `timetable`, `timetable-list`, `schedule` and its
/// partial `lesson`).

/// A group, teacher, room or department in a list: a name, a link and one line of detail.
struct DirectoryItem: Sendable {
    var name: String
    var url: String
    var detail: String
}

struct TimetableHomePage: PageModel {
    static let template = "timetable"
    static let section: SiteSection? = .timetable

    struct MyGroup: Sendable {
        var name: String
        var url: String
    }

    struct Counts: Sendable {
        var groups: Int
        var teachers: Int
        var rooms: Int
        var departments: Int
    }

    struct Results: Sendable {
        var groups: [DirectoryItem]
        var teachers: [DirectoryItem]
        var rooms: [DirectoryItem]
        var groupCount: Int
        var teacherCount: Int
        var roomCount: Int
        var none: Bool
    }

    var q: String
    var myGroup: MyGroup?
    var counts: Counts
    var empty: Bool
    var results: Results?
}

struct TimetableListPage: PageModel {
    static let template = "timetable-list"
    static let section: SiteSection? = .timetable

    struct Choice: Sendable {
        var name: String
        var selected: Bool
        var url: String
    }

    struct Tab: Sendable {
        var url: String
        var title: String
        var current: Bool
    }

    struct ListSection: Sendable {
        var title: String
        var items: [DirectoryItem]
    }

    var kind: String
    var title: String
    /// The search field's label: "Search groups".
    var searchLabel: String
    var q: String
    var searchAction: String
    var sections: [ListSection]
    var total: Int
    var sectionChoices: [Choice]
    var tabs: [Tab]
    /// The rooms list links to the free rooms.
    var isRooms: Bool
    /// The list's filters (faculty, course, degree, form; department; type, building).
    var filters: [Filter] = []
    var hasFilters = false
    /// The sections chosen, which the filter form keeps.
    var chosenSections: String = ""
    /// The star of the department the teachers are filtered by, for a signed-in visitor.
    var favorite: FavoriteToggle? = nil

    struct Filter: Sendable {
        var name: String
        var label: String
        var options: [SelectOption]
    }
}

struct SchedulePage: PageModel {
    static let template = "schedule"
    static let section: SiteSection? = .timetable

    struct Link: Sendable {
        var name: String
        var url: String
        /// A room's place on OpenStreetMap.
        var mapURL: String? = nil
    }

    /// A lesson as the `lesson` partial shows it.
    struct Lesson: Sendable {
        var start: String
        var end: String
        /// The subject as the visitor chose to see it: its abbreviation, or its full name.
        var subject: String
        var fullSubject: String
        /// The full name differs from what is shown: the subject opens to show it (a tap on a
        /// phone, where a `title` is never seen).
        var expandable: Bool
        var typeClass: String
        var typeName: String
        var typeAbbreviation: String
        var past: Bool
        var now: Bool
        var rooms: [Link]
        var teachers: [Link]
        var groups: [Link]
        var exam: Bool
        var date: String
        var subgroup: Int?
        /// "weeks 1, 3" when the lesson is not every week.
        var weeks: String?
        /// The pair the lesson starts at (the institution's numbered slots).
        var pair: Int?
        var announcement: Bool
        var note: String?
        /// For the next lesson: "today" or its weekday and date.
        var when: String?
        /// The visitor's own notes on this occurrence (a marker on the lesson).
        var myNotes: [String] = []
        var hasNote = false
        /// Where the visitor writes a note on it; empty for a visitor who is not signed in.
        var noteURL = ""
        var canNote = false
    }

    struct Banner: Sendable {
        var current: Lesson?
        var minutesLeft: String?
        var next: Lesson?
        var minutesUntil: String?
    }

    struct Cell: Sendable {
        var lessons: [Lesson]
        /// The slot is in a window of the day.
        var window: Bool
        var today: Bool
        /// The window's times, length and message, in its first slot.
        var free: FreeTime? = nil
    }

    struct Row: Sendable {
        var time: String
        var cells: [Cell]
    }

    struct FreeTime: Sendable {
        var start: String
        var end: String
        var minutes: String
        /// What the group's timetable says of it (data: never translated).
        var message: String? = nil
    }

    /// A lesson or a window between lessons, in a day's list.
    struct DayItem: Sendable {
        var lesson: Lesson?
        var window: FreeTime?
    }

    struct Day: Sendable {
        var weekday: String
        var short: String
        var date: String
        var iso: String
        var today: Bool
        var week: String?
        var items: [DayItem]
        var empty: Bool
        var past: Bool
    }

    struct Choice: Sendable {
        var label: String
        var selected: Bool
        var url: String
    }

    /// What students say of a teacher, and the visitor's own answer.
    struct Card: Sendable {
        struct Description: Sendable {
            var text: String
            var hidden: Bool
            var moderationURL: String
            var canModerate: Bool
        }

        struct AnswerForm: Sendable {
            var url: String
            var deleteURL: String
            var hasAnswer: Bool
            var description: String
            /// An admin hid the visitor's description: it stays hidden until an admin shows it.
            var descriptionHidden: Bool
            var attendance: [SelectOption]
            var automaticPass: [SelectOption]
        }

        var subject: String?
        var attendance: String?
        var automatic: String?
        var automaticYes: Bool
        var counts: String
        var descriptions: [Description]
        var hasDescriptions: Bool
        var form: AnswerForm?
    }

    var title: String
    var subtitle: String
    var feed: String
    /// Where to find another schedule: on the visitor's own schedule, which `/timetable` opens on.
    var find: String? = nil
    /// The teachers of the visitor's own schedule, linked from it.
    var myTeachers: String? = nil
    /// The search inside the schedule (`q`), and what a jump to a date keeps.
    var q: String = ""
    /// "changed by the institution on November 20, 2026".
    var lastChanged: String? = nil
    var jump: Jump? = nil
    /// The exam session's view: exams and consultations in date order.
    var examView = false
    var examsURL: String = ""
    var exams: [Exam] = []
    var noExams = false
    /// The changes imports brought to the days ahead, seen in the last two weeks (issue 39).
    var changes: Changes? = nil

    struct Changes: Sendable {
        /// "Changes since November 20".
        var title: String
        var items: [Change]
        /// "and 12 more", when not every change is shown.
        var more: String?
    }

    /// A changed occurrence: what it was (struck through) and what it is.
    struct Change: Sendable {
        /// added, cancelled, moved, room or teacher.
        var kind: String
        var label: String
        var when: String
        var iso: String
        var subject: String
        var subgroup: String?
        var old: String?
        var new: String?
    }

    struct Jump: Sendable {
        var action: String
        var date: String
        var subgroup: String?
        var view: String?
    }

    struct Exam: Sendable {
        var date: String
        var left: String
        var past: Bool
        var lesson: Lesson
    }
    /// A room's page: its place on OpenStreetMap.
    var roomMapURL: String? = nil
    var term: String?
    var card: Card?
    var weekTitle: String
    var studyWeek: String
    var previous: String
    var next: String
    var thisWeek: String
    var isThisWeek: Bool
    var dayHeaders: [Day]
    var rows: [Row]
    var days: [Day]
    var hasLessons: Bool
    var banner: Banner
    var hasBanner: Bool
    var listView: Bool
    var gridView: Bool
    var gridURL: String
    var listURL: String
    var subgroups: [Choice]
    /// The star, for a signed-in visitor.
    var favorite: FavoriteToggle?
    /// The visitor's nickname for the group, on a group's page.
    var nickname: NicknameBox?
    /// A teacher's photo and e-mail, on a teacher's page.
    var person: Person?

    struct Person: Sendable {
        var photo: String
        var hasPhoto: Bool
        var email: String
        var hasEmail: Bool
    }
}
