import Foundation
import Listen

/// The show schedule on a station's page (issue 42): the shows for everyone, with the calendar
/// feed; a host's own DJ credentials; admins' form to add a show.
struct StationShowsPanel: Sendable {
    struct Row: Sendable {
        var title: String
        /// Its days and times, or its date.
        var when: String
        var hosts: String
        var onAir: Bool
        var deleteURL: String
    }

    var rows: [Row]
    var empty: Bool
    var calendarURL: String
    /// The signed-in user hosts a show here (or is an admin): they may get DJ credentials.
    var isHost: Bool
    var djURL: String
    /// Credentials just made, shown once.
    var credentials: Credentials?
    /// Admins add and remove shows.
    var isAdmin: Bool
    var addURL: String
    var days: [StationAutoDJPanel.Day]
    var programmes: [StationAutoDJPanel.Option]
    var form: StationShowForm
    var errors = FieldErrors()
    var open = false

    struct Credentials: Sendable {
        var user: String
        var password: String
        var server: String
    }
}

/// A new show, as the station page's form sends it: weekly on the days, or once on `date`.
struct StationShowForm: PageForm {
    var _csrf: String?
    var title: String?
    /// The hosts' e-mail addresses, separated by commas or spaces.
    var hosts: String?
    var days: [String]?
    /// A one-off show's date (`YYYY-MM-DD`); empty for a weekly one.
    var date: String?
    var from: String?
    var to: String?
    /// A radio programme's id; empty for none.
    var programme: String?

    /// The hosts' addresses as written.
    var hostAddresses: [String] {
        (hosts ?? "").split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" || $0.isNewline }).map {
            $0.lowercased()
        }
    }
}

/// A station's listener statistics on its page, for admins (issue 42).
struct StationListenersPanel: Sendable {
    struct Row: Sendable {
        var name: String
        var unique: Int
        var peak: Int
        var hours: String
    }

    var current: String
    /// The chart's markup (escaped already).
    var chart: String
    var days: [Row]
    var shows: [Row]
    var hasShows: Bool
    var total: Row
}
