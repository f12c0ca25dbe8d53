import CampusHTTP
import Foundation
import Localization
import Timetable

/// The departments list (`/timetable/departments`): each department opens on its teachers, where
/// a signed-in visitor keeps it as a favorite.
extension TimetablePages {
    @Sendable func departmentList(_ request: PageRequest) async throws -> PageAnswer {
        let t = request.t
        let chosen = Listing.DepartmentSections(rawValue: request.query("sections") ?? "") ?? .letter
        let (sections, teacherCounts) = try await directory.departments(search: request.query("q"), sections: chosen)
        return list(
            request, kind: .departments,
            sectionChoices: Listing.DepartmentSections.allCases.map(\.rawValue), chosen: chosen.rawValue,
            sections: sections.map { section in
                .init(
                    title: Self.heading(section.label, t),
                    items: section.items.map { Self.item($0, teachers: teacherCounts[$0.abbreviation] ?? 0, t) })
            },
            total: sections.reduce(0) { $0 + $1.items.count })
    }

    /// A department in the list: its name, its abbreviation and how many teachers it has; it links
    /// to its teachers.
    static func item(_ department: Department, teachers: Int, _ t: Translator) -> DirectoryItem {
        var detail: [String] = []
        if department.name != nil { detail.append(department.abbreviation) }
        if teachers > 0 { detail.append(t.plural("{count} teacher", "{count} teachers", teachers)) }
        return DirectoryItem(
            name: department.name ?? department.abbreviation, url: departmentURL(department.abbreviation),
            detail: detail.joined(separator: " · "))
    }

    /// A department's page: the teachers list filtered by it.
    static func departmentURL(_ abbreviation: String) -> String {
        SiteRoutes.teachers.path(query: [("department", abbreviation)])
    }

    /// The star of a department for a signed-in visitor: whether it is a favorite of theirs.
    func departmentStar(_ department: Department?, request: PageRequest) async throws -> FavoriteToggle? {
        guard let department, let user = request.visitor.user else { return nil }
        let favorite = Favorite(kind: .department, id: department.abbreviation)
        return FavoriteToggle(
            kind: favorite.kind.rawValue, id: favorite.id,
            isFavorite: try await myTimetable.kept(by: user).contains(favorite),
            back: Self.departmentURL(department.abbreviation))
    }
}
