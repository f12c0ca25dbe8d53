import Foundation

/// Items under a heading, as lists show them.
public struct Section<Item: Sendable>: Sendable {
    public var label: SectionLabel
    public var items: [Item]
    /// The heading in English (the API's `title`); pages say ``label`` in the reader's language.
    public var title: String { label.english }

    public init(label: SectionLabel, items: [Item]) {
        self.label = label
        self.items = items
    }
}

/// What a section of a list holds: a name from the institution's data (a speciality, a letter,
/// a department), or a heading Campus words (a course, a building), which pages translate.
public enum SectionLabel: Sendable, Hashable {
    case name(String)
    case faculty(Int)
    case course(Int)
    case building(Int)
    case floor(building: Int, floor: Int)
    case noSpeciality, noRank, noDegree, noDepartment, noBuilding, offCampus, noLetter

    public var english: String {
        switch self {
        case .name(let name): name
        case .faculty(let id): "Faculty \(id)"
        case .course(let course): "Course \(course)"
        case .building(let building): "Building \(building)"
        case .floor(let building, let floor): "Building \(building), floor \(floor)"
        case .noSpeciality: "No speciality"
        case .noRank: "No rank"
        case .noDegree: "No degree"
        case .noDepartment: "No department"
        case .noBuilding: "No building"
        case .offCampus: "Off campus"
        case .noLetter: "—"
        }
    }
}

/// Search text matching as people expect: any letter case, ё as е, and every word of the query
/// must begin some part of the item ("кир ир" finds "Киринович Ирина").
public struct SearchText: Sendable, Hashable {
    public let words: [String]

    public init?(_ text: String?) {
        guard let text else { return nil }
        let words = Self.fold(text).split(whereSeparator: { $0.isWhitespace }).map(String.init)
        guard !words.isEmpty else { return nil }
        self.words = words
    }

    public static func fold(_ text: String) -> String {
        text.lowercased().replacingOccurrences(of: "ё", with: "е")
    }

    /// Whether every word begins one of `parts`, or (for words of three letters or more) occurs
    /// inside one of `contained`.
    public func matches(prefixOf parts: [String?], contained: [String?] = []) -> Bool {
        let whole = parts.compactMap { $0 }.map(Self.fold)
        let parts =
            whole + whole.flatMap { $0.split(whereSeparator: { $0.isWhitespace || $0 == "-" }).map(String.init) }
        let contained = contained.compactMap { $0 }.map(Self.fold)
        return words.allSatisfy { word in
            parts.contains { $0.hasPrefix(word) } || (word.count >= 3 && contained.contains { $0.contains(word) })
        }
    }
}

/// Lists of groups, teachers, rooms and departments with search, filters and sections (seed 000).
public enum Listing {
    public enum GroupSections: String, Sendable, CaseIterable {
        case speciality, faculty, flow, course
    }

    public struct GroupFilter: Sendable {
        public var search: SearchText?
        public var facultyID: Int?
        public var course: Int?
        public var educationDegree: Int?
        public var specialityID: Int?
        /// The speciality's form of education ("дневная", "заочная"), by id.
        public var educationFormID: Int?

        public init(
            search: String? = nil, facultyID: Int? = nil, course: Int? = nil, educationDegree: Int? = nil,
            specialityID: Int? = nil, educationFormID: Int? = nil
        ) {
            self.search = SearchText(search)
            self.facultyID = facultyID
            self.course = course
            self.educationDegree = educationDegree
            self.specialityID = specialityID
            self.educationFormID = educationFormID
        }
    }

    /// Groups found by the beginning of their name or of a word of their speciality's name or
    /// abbreviation, filtered, in sections sorted by title, groups sorted by name.
    public static func groups(
        _ groups: [StudyGroup], specialities: [Int: Speciality], faculties: [Int: Faculty], filter: GroupFilter,
        sections: GroupSections
    ) -> [Section<StudyGroup>] {
        let found = groups.filter { group in
            let speciality = group.specialityID.flatMap { specialities[$0] }
            if let facultyID = filter.facultyID, (group.facultyID ?? speciality?.facultyID) != facultyID {
                return false
            }
            if let course = filter.course, group.course != course { return false }
            if let degree = filter.educationDegree, group.educationDegree != degree { return false }
            if let specialityID = filter.specialityID, group.specialityID != specialityID { return false }
            if let form = filter.educationFormID, speciality?.educationForm?.id != form { return false }
            if let search = filter.search {
                return search.matches(
                    prefixOf: [group.name, group.title, speciality?.abbreviation, speciality?.name],
                    contained: [speciality?.name, group.title])
            }
            return true
        }
        return sectioned(found.sorted { $0.name < $1.name }, last: .noSpeciality) { group -> SectionLabel? in
            switch sections {
            case .speciality:
                guard let speciality = group.specialityID.flatMap({ specialities[$0] }) else { return nil }
                let faculty = (group.facultyID ?? speciality.facultyID).flatMap { faculties[$0]?.abbreviation }
                let details = [faculty, speciality.educationForm?.name.lowercased()].compactMap { $0 }
                return .name(
                    details.isEmpty
                        ? speciality.abbreviation : "\(speciality.abbreviation) (\(details.joined(separator: ", ")))")
            case .faculty:
                let id = group.facultyID ?? group.specialityID.flatMap { specialities[$0]?.facultyID }
                guard let id else { return nil }
                if let faculty = faculties[id] { return .name(faculty.abbreviation) }
                return .faculty(id)
            case .flow:
                return .name(group.flow)
            case .course:
                return group.course.map { SectionLabel.course($0) }
            }
        }
    }

    public enum TeacherSections: String, Sendable, CaseIterable {
        case letter, department, rank, degree
    }

    /// Teachers found by the beginning of any part of their name or of a department abbreviation,
    /// in sections; a teacher of several departments is in each of them.
    public static func teachers(
        _ teachers: [Teacher], search: String?, department: String? = nil, sections: TeacherSections
    ) -> [Section<Teacher>] {
        let search = SearchText(search)
        let departmentKey = department.map(Department.key)
        let found = teachers.filter { teacher in
            if let departmentKey, !teacher.departments.contains(departmentKey) { return false }
            guard let search else { return true }
            return search.matches(
                prefixOf: [teacher.lastName, teacher.firstName, teacher.middleName, teacher.urlID]
                    + teacher.departments)
        }
        .sorted { ($0.lastName, $0.firstName, $0.middleName ?? "") < ($1.lastName, $1.firstName, $1.middleName ?? "") }
        switch sections {
        case .letter:
            return sectioned(found, last: .noLetter) {
                $0.lastName.first.map { SectionLabel.name(String($0).uppercased()) }
            }
        case .rank:
            return sectioned(found, last: .noRank) { $0.rank.map { SectionLabel.name($0) } }
        case .degree:
            return sectioned(found, last: .noDegree) { $0.degreeAbbreviation.map { SectionLabel.name($0) } }
        case .department:
            var byDepartment: [String: [Teacher]] = [:]
            var none: [Teacher] = []
            for teacher in found {
                if teacher.departments.isEmpty { none.append(teacher) }
                for department in teacher.departments { byDepartment[department, default: []].append(teacher) }
            }
            var result = byDepartment.sorted { $0.key < $1.key }.map { Section(label: .name($0.key), items: $0.value) }
            if !none.isEmpty { result.append(Section(label: .noDepartment, items: none)) }
            return result
        }
    }

    public enum RoomSections: String, Sendable, CaseIterable {
        case building, floor, department
    }

    /// Rooms found by the beginning of their name ("604", "604-5") or of their department or
    /// type, filtered by type and building, in sections; rooms off campus come last.
    public static func rooms(
        _ rooms: [Room], search: String?, type: String? = nil, building: Int? = nil, sections: RoomSections
    ) -> [Section<Room>] {
        let search = SearchText(search)
        let found = rooms.filter { room in
            if let type, room.type?.abbreviation.lowercased() != type.lowercased(),
                room.type?.name.lowercased() != type.lowercased()
            {
                return false
            }
            if let building, room.building != building { return false }
            guard let search else { return true }
            return search.matches(
                prefixOf: [room.displayName, room.name, room.departmentAbbreviation, room.type?.abbreviation],
                contained: [room.note])
        }
        .sorted { a, b in
            (a.isOffCampus ? 1 : 0, a.building ?? Int.max, a.floor ?? 0, a.name)
                < (b.isOffCampus ? 1 : 0, b.building ?? Int.max, b.floor ?? 0, b.name)
        }
        return sectioned(found, last: .offCampus) { room -> SectionLabel? in
            if room.isOffCampus { return nil }
            switch sections {
            case .building:
                return room.building.map { SectionLabel.building($0) } ?? .noBuilding
            case .floor:
                guard let building = room.building else { return .noBuilding }
                return room.floor.map { SectionLabel.floor(building: building, floor: $0) } ?? .building(building)
            case .department:
                return room.departmentAbbreviation.map { SectionLabel.name($0) }
            }
        }
    }

    public enum DepartmentSections: String, Sendable, CaseIterable {
        case letter
    }

    /// Departments found by the beginning of their abbreviation or of a word of their name (or,
    /// for three letters or more, anywhere in the name), by abbreviation, in sections by first
    /// letter.
    public static func departments(_ departments: [Department], search: String?, sections: DepartmentSections)
        -> [Section<Department>]
    {
        let search = SearchText(search)
        let found = departments.filter { department in
            search?.matches(prefixOf: [department.abbreviation, department.name], contained: [department.name]) ?? true
        }
        .sorted { $0.abbreviation < $1.abbreviation }
        switch sections {
        case .letter:
            return sectioned(found, last: .noLetter) {
                $0.abbreviation.first.map { SectionLabel.name(String($0).uppercased()) }
            }
        }
    }

    /// Groups items under the label `key` gives them, keeping the items' order; sections are
    /// sorted by their English title (numbers by value), and items without a label come last
    /// under `last`.
    static func sectioned<Item>(_ items: [Item], last: SectionLabel, key: (Item) -> SectionLabel?) -> [Section<Item>] {
        var order: [SectionLabel] = []
        var byLabel: [SectionLabel: [Item]] = [:]
        var rest: [Item] = []
        for item in items {
            guard let label = key(item) else {
                rest.append(item)
                continue
            }
            if byLabel[label] == nil { order.append(label) }
            byLabel[label, default: []].append(item)
        }
        var sections = order.sorted { $0.english.localizedStandardCompare($1.english) == .orderedAscending }.map {
            Section(label: $0, items: byLabel[$0] ?? [])
        }
        if !rest.isEmpty { sections.append(Section(label: last, items: rest)) }
        return sections
    }
}
