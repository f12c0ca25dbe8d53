/// What a notification is about (issue 39). Each topic has its own choice of channels; a topic's
/// raw value is what the API and the settings table say.
public enum NotificationTopic: String, CaseIterable, Sendable, Codable {
    /// A lesson of my group (and subgroup), of an elective I take or of a saved schedule in My
    /// timetable was added, cancelled, moved, or changed room or teacher.
    case scheduleChanged = "schedule-changed"
    /// The same for a group, teacher or room I keep among my favorites.
    case favoriteChanged = "favorite-changed"
    /// My next lesson begins in N minutes (never for a cancelled lesson, once per lesson).
    case nextLesson = "next-lesson"
    /// A task of mine is due in a day, and again in an hour.
    case taskDeadline = "task-deadline"
    /// An exam of my group is N days away.
    case examSoon = "exam-soon"
    /// A competition I joined was deactivated, or activated again.
    case competitionStatus = "competition-status"
    /// The organizer entered, corrected or cleared my result (or a track gave it).
    case resultEntered = "result-entered"
    /// Somebody's result moved me up or down the ranking of a competition I joined.
    case rankChanged = "rank-changed"
    /// A result beat the record of a competition I joined, or a record I held.
    case recordBroken = "record-broken"
    /// Somebody asks to follow me, or accepted my request to follow them.
    case friends = "friends"
    /// Somebody I follow has a new or corrected result.
    case friendResult = "friend-result"
    /// A podcast I like has a new episode.
    case newEpisode = "new-episode"
    /// A radio station I like went on the air.
    case stationOnAir = "station-on-air"

    /// The channels a new account has for the topic: a change of my own schedule everywhere at
    /// once, everything else in the inbox only until the user turns more on.
    public var defaultChoice: NotificationChoice {
        switch self {
        case .scheduleChanged: NotificationChoice(inbox: true, push: true, email: true)
        default: NotificationChoice(inbox: true, push: false, email: false)
        }
    }

    /// Whether a message of the topic says something that is only true before a moment (a
    /// lesson's start, a deadline): such a message is never sent after that moment.
    public var expires: Bool {
        switch self {
        case .nextLesson, .taskDeadline: true
        default: false
        }
    }
}

/// Where a notification goes: the inbox on every page (the bell), the browser's push service,
/// e-mail.
public enum NotificationChannel: String, CaseIterable, Sendable, Codable {
    case inbox, push, email
}

/// The channels chosen for a topic.
public struct NotificationChoice: Sendable, Equatable, Codable {
    public var inbox: Bool
    public var push: Bool
    public var email: Bool

    public init(inbox: Bool, push: Bool, email: Bool) {
        self.inbox = inbox
        self.push = push
        self.email = email
    }

    /// Whether the topic reaches the user at all.
    public var any: Bool { inbox || push || email }

    public func includes(_ channel: NotificationChannel) -> Bool {
        switch channel {
        case .inbox: inbox
        case .push: push
        case .email: email
        }
    }
}

/// What a user chose about notifications besides the channels: quiet hours, how long before a
/// lesson the reminder comes, how many days before an exam, and whether mail comes at once or
/// as one digest a day.
public struct NotificationPreferences: Sendable, Equatable {
    /// Minutes before a lesson's start (1…120).
    public var lessonMinutes: Int
    /// Days before an exam (1…30).
    public var examDays: Int
    /// No push and no mail in these hours (the inbox still gets everything); nil for none.
    public var quietHours: QuietHours?
    /// The user's time zone (an IANA name) for quiet hours; nil for the institution's.
    public var timeZone: String?
    /// Mail as one message a day (at the end of quiet hours, else at 07:00) instead of at once.
    public var emailDigest: Bool

    public static let lessonMinutesRange = 1...120
    public static let examDaysRange = 1...30

    public init(
        lessonMinutes: Int = 15, examDays: Int = 3, quietHours: QuietHours? = nil, timeZone: String? = nil,
        emailDigest: Bool = false
    ) {
        self.lessonMinutes = lessonMinutes
        self.examDays = examDays
        self.quietHours = quietHours
        self.timeZone = timeZone
        self.emailDigest = emailDigest
    }
}
