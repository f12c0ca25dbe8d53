import Foundation

/// A task in a list: the tasks page's and the glance's.
struct TaskRow: Sendable {
    var subject: String
    var text: String
    /// When it is due, as a person reads it; empty without a deadline.
    var deadline: String
    /// The same moment in RFC 3339, for `<time datetime>`.
    var deadlineISO: String
    /// `in 2 days`, `3 h overdue`; empty when done or without a deadline.
    var countdown: String
    var overdue: Bool
    var done: Bool
    var imageCount: Int
    var hasImages: Bool
    var url: String
    var doneURL: String
}

/// `/timetable/mine/tasks`: tasks not done by deadline, then done ones; the subjects of my
/// schedule to start a new task with.
struct TasksPage: PageModel {
    static let template = "tasks"
    static let section: SiteSection? = .timetable

    struct Subject: Sendable {
        var name: String
        var url: String
    }

    var open: [TaskRow]
    var done: [TaskRow]
    var hasTasks: Bool
    var hasDone: Bool
    var subjects: [Subject]
    var hasSubjects: Bool
}

/// A new task, or one to change: its fields, the subject's next lessons as deadlines to pick,
/// another date and time, or none; a task's photos.
struct TaskFormPage: PageModel {
    static let template = "task"
    static let section: SiteSection? = .timetable

    /// One of the subject's next lessons: its start is the deadline's value.
    struct Choice: Sendable {
        var value: String
        var label: String
        var checked: Bool
    }

    struct Image: Sendable {
        var url: String
        var deleteURL: String
    }

    var heading: String
    var action: String
    var isNew: Bool
    var subject: String
    var text: String
    /// The subjects of my schedule, offered as the subject.
    var subjects: [String]
    var choices: [Choice]
    var hasChoices: Bool
    /// Another deadline, as the `datetime-local` field shows it.
    var other: String
    var otherChecked: Bool
    var noneChecked: Bool
    var done: Bool
    var images: [Image]
    var imagesURL: String
    var deleteURL: String
    /// Where the form goes to show another subject's lessons.
    var reloadURL: String
    var errors: FieldErrors
}
