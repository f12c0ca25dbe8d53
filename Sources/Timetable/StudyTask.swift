import Foundation

/// A student's task (seed 000's education tasks: homework, a lab, a test): a subject, what to
/// do, an optional deadline, done or not, and photos. Private to its owner.
public struct StudyTask: Sendable, Equatable {
    public var id: Int64
    public var subject: String
    public var text: String
    public var deadline: Date?
    public var done: Bool
    public var images: [Image]
    public var createdAt: Date
    public var updatedAt: Date

    /// A photo of a task (the blackboard, the page of a textbook); its bytes are kept apart.
    public struct Image: Sendable, Equatable {
        public var id: Int64
        public var contentType: String
        public var size: Int

        public init(id: Int64, contentType: String, size: Int) {
            self.id = id
            self.contentType = contentType
            self.size = size
        }
    }

    public init(
        id: Int64, subject: String, text: String, deadline: Date?, done: Bool, images: [Image] = [],
        createdAt: Date, updatedAt: Date
    ) {
        self.id = id
        self.subject = subject
        self.text = text
        self.deadline = deadline
        self.done = done
        self.images = images
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// The longest subject, in characters (one line).
    public static let subjectLength = 200
    /// The longest text, in characters (several lines).
    public static let textLength = 4000
    /// The most tasks one user keeps.
    public static let limit = 1000
    /// The most images one task holds.
    public static let imageLimit = 10
    /// The largest image, in bytes: a phone's photo.
    public static let imageSize = 8 << 20
    /// The most image bytes one user keeps, over all tasks.
    public static let imageQuota = 200 << 20

    /// Where a task stands at a moment.
    public enum State: Sendable, Equatable {
        case done
        /// Not done, and its deadline has passed this many seconds ago.
        case overdue(seconds: Int)
        /// Not done, due in this many seconds.
        case due(seconds: Int)
        /// Not done, without a deadline.
        case open
    }

    public func state(at now: Date) -> State {
        if done { return .done }
        guard let deadline else { return .open }
        let seconds = Int(deadline.timeIntervalSince(now).rounded(.down))
        return seconds < 0 ? .overdue(seconds: -seconds) : .due(seconds: seconds)
    }

    /// The order a list shows: tasks not done before done ones; among them, the nearest deadline
    /// first and tasks without one after those that have one; then the oldest first.
    public static func precedes(_ a: StudyTask, _ b: StudyTask) -> Bool {
        if a.done != b.done { return !a.done }
        switch (a.deadline, b.deadline) {
        case (let x?, let y?) where x != y: return x < y
        case (.some, nil): return true
        case (nil, .some): return false
        default: return a.id < b.id
        }
    }

    /// The deadlines a task of `subject` may take: the starts of the subject's occurrences
    /// (its abbreviation or full name, ignoring case) that begin after `now`, soonest first, at
    /// most `limit`.
    public static func deadlineChoices(
        for subject: String, in occurrences: [Occurrence], after now: Date, timeZone: TimeZone, limit: Int
    ) -> [Occurrence] {
        let wanted = subject.trimmingCharacters(in: .whitespaces).lowercased()
        let local = LocalDateTime(now, in: timeZone)
        return
            occurrences
            .filter { occurrence in
                occurrence.start > local
                    && (wanted.isEmpty || occurrence.lesson.subject.lowercased() == wanted
                        || occurrence.lesson.subjectFullName?.lowercased() == wanted)
            }
            .sorted { ($0.start, $0.lesson.id) < ($1.start, $1.lesson.id) }
            .prefix(limit).map { $0 }
    }
}
