// Pages of the timetable's rooms: free rooms, conflicts, buildings on the map.

/// The free-rooms page: the question asked in its form, and the rooms free then.
struct FreeRoomsPage: PageModel {
    static let template = "free-rooms"
    static let section: SiteSection? = .timetable

    struct Found: Sendable {
        var name: String
        var url: String
        var detail: String
        /// "free until 14:00", "free for the rest of the day".
        var until: String
    }

    struct ResultSection: Sendable {
        var title: String
        var items: [Found]
    }

    var date: String
    var time: String
    var pairs: [SelectOption]
    var building: String
    var type: String
    var capacity: String
    /// "Free on 2 October 2023 during pair 1 (09:00–10:20): 14 rooms".
    var summary: String?
    var error: String?
    var sections: [ResultSection]
    var none: Bool
}

/// The timetable office's conflicts report.
struct ConflictsPage: PageModel {
    static let template = "conflicts"
    static let section: SiteSection? = .admin

    struct Side: Sendable {
        var time: String
        var subject: String
        var detail: String
    }

    struct Row: Sendable {
        var date: String
        var kind: String
        var name: String
        var first: Side
        var second: Side
    }

    var from: String
    var to: String
    var kinds: [SelectOption]
    var summary: String?
    var error: String?
    var rows: [Row]
    /// Stored, as templates see only stored properties.
    var hasRows: Bool
}

/// Admins name buildings and set where they are.
struct BuildingsPage: PageModel {
    static let template = "buildings"
    static let section: SiteSection? = .admin

    struct Row: Sendable {
        var number: Int
        var name: String
        var latitude: String
        var longitude: String
        var mapURL: String?
        var rooms: String
        var action: String
    }

    var rows: [Row]
}
