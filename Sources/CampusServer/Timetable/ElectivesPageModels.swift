/// A student's speciality, year and electives, with their groups (seed 003).
struct ElectivesPage: PageModel {
    static let template = "electives"
    static let section: SiteSection? = .timetable

    struct Subject: Sendable {
        var id: Int
        var name: String
        var detail: String
        var groups: [SelectOption]
        var action: String
        /// Nil for normative subjects, which stay.
        var deleteAction: String?
        /// The chosen group's schedule.
        var groupURL: String?
        var groupName: String?
    }

    struct Section: Sendable {
        var title: String
        var id: String
        var subjects: [Subject]
        var empty: Bool
    }

    struct Found: Sendable {
        var name: String
        var detail: String
        var action: String
    }

    struct OverlapItem: Sendable {
        var date: String
        var first: String
        var second: String
    }

    var speciality: String
    var specialities: [String]
    var years: [SelectOption]
    var hasProgramme: Bool
    var sections: [Section]
    var q: String
    var found: [Found]
    var searched: Bool
    var overlaps: [OverlapItem]
    var hasOverlaps: Bool
}
