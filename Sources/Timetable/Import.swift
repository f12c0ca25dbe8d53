/// Timetable data read from an outside source (IIS, seed 003 and 004 files), before it is stored.
/// Things refer to each other by natural keys: groups by name, teachers by URL id, rooms by name
/// and building. Storing it is an upsert: fields given here replace stored ones, fields that are
/// nil leave them as they are.
public struct TimetableImport: Sendable {
    public var faculties: [Faculty] = []
    public var specialities: [Speciality] = []
    public var departments: [Department] = []
    public var rooms: [ImportedRoom] = []
    public var groups: [ImportedGroup] = []
    public var teachers: [ImportedTeacher] = []
    /// Each schedule replaces the lessons of its owner.
    public var schedules: [ImportedSchedule] = []
    public var teacherCards: [String: TeacherCard] = [:]
    public var subjects: [ImportedSubject] = []
    /// Notes on free slots by group; a group named here has its notes replaced by these.
    public var windowNotes: [String: [WindowNote]] = [:]
    /// The institution's pairs, when the source numbers them (seed 004).
    public var pairTimes: PairTimes?

    public init() {}

    /// Adds another import's data to this one.
    public mutating func merge(_ other: TimetableImport) {
        faculties += other.faculties
        specialities += other.specialities
        departments += other.departments
        rooms += other.rooms
        groups += other.groups
        teachers += other.teachers
        schedules += other.schedules
        teacherCards.merge(other.teacherCards) { $1 }
        subjects += other.subjects
        windowNotes.merge(other.windowNotes) { $1 }
        pairTimes = other.pairTimes ?? pairTimes
    }

    public var lessonCount: Int { schedules.reduce(0) { $0 + $1.lessons.count } }
}

/// A room's natural key: its name in its building.
public struct RoomKey: Sendable, Hashable, Comparable {
    public var name: String
    public var building: Int?

    public init(name: String, building: Int?) {
        self.name = name
        self.building = building
    }

    public var displayName: String { building.map { "\(name)-\($0)" } ?? name }

    public static func < (lhs: RoomKey, rhs: RoomKey) -> Bool { lhs.displayName < rhs.displayName }
}

public struct ImportedRoom: Sendable, Hashable {
    public var key: RoomKey
    public var floor: Int?
    public var type: RoomType?
    public var capacity: Int?
    public var note: String?
    public var departmentAbbreviation: String?
    public var isOffCampus: Bool
    public var iisID: Int?
    /// Where the room is, when the source says (seed 003).
    public var point: MapPoint?

    public init(
        key: RoomKey, floor: Int?, type: RoomType? = nil, capacity: Int? = nil, note: String? = nil,
        departmentAbbreviation: String? = nil, isOffCampus: Bool, iisID: Int? = nil, point: MapPoint? = nil
    ) {
        self.point = point
        self.key = key
        self.floor = floor
        self.type = type
        self.capacity = capacity
        self.note = note
        self.departmentAbbreviation = departmentAbbreviation
        self.isOffCampus = isOffCampus
        self.iisID = iisID
    }
}

public struct ImportedGroup: Sendable, Hashable {
    public var name: String
    public var title: String?
    public var course: Int?
    public var facultyID: Int?
    public var specialityID: Int?
    public var educationDegree: Int?
    public var studentCount: Int?
    public var iisID: Int?

    public init(
        name: String, title: String? = nil, course: Int? = nil, facultyID: Int? = nil, specialityID: Int? = nil,
        educationDegree: Int? = nil, studentCount: Int? = nil, iisID: Int? = nil
    ) {
        self.name = name
        self.title = title
        self.course = course
        self.facultyID = facultyID
        self.specialityID = specialityID
        self.educationDegree = educationDegree
        self.studentCount = studentCount
        self.iisID = iisID
    }
}

public struct ImportedTeacher: Sendable, Hashable {
    public var urlID: String
    public var firstName: String
    public var middleName: String?
    public var lastName: String
    public var rank: String?
    public var degree: String?
    public var degreeAbbreviation: String?
    /// nil leaves the stored departments as they are.
    public var departments: [String]?
    public var photoURL: String?
    public var email: String?
    public var iisID: Int?

    public init(
        urlID: String, firstName: String, middleName: String? = nil, lastName: String, rank: String? = nil,
        degree: String? = nil, degreeAbbreviation: String? = nil, departments: [String]? = nil,
        photoURL: String? = nil, email: String? = nil, iisID: Int? = nil
    ) {
        self.urlID = urlID
        self.firstName = firstName
        self.middleName = middleName
        self.lastName = lastName
        self.rank = rank
        self.degree = degree
        self.degreeAbbreviation = degreeAbbreviation
        self.departments = departments
        self.photoURL = photoURL
        self.email = email
        self.iisID = iisID
    }
}

/// Whose lessons a schedule holds.
public enum ScheduleOwner: Sendable, Hashable, CustomStringConvertible {
    case group(String)
    case teacher(String)

    public var description: String {
        switch self {
        case .group(let name): "group \(name)"
        case .teacher(let urlID): "teacher \(urlID)"
        }
    }
}

public struct ImportedSchedule: Sendable {
    public var owner: ScheduleOwner
    public var term: TermDates?
    public var lessons: [ImportedLesson]
    /// When the source last changed the schedule (IIS's last-update date).
    public var lastUpdate: LocalDate?

    public init(owner: ScheduleOwner, term: TermDates? = nil, lessons: [ImportedLesson], lastUpdate: LocalDate? = nil) {
        self.owner = owner
        self.term = term
        self.lessons = lessons
        self.lastUpdate = lastUpdate
    }
}

public struct ImportedLesson: Sendable, Hashable {
    public var subject: String
    public var subjectFullName: String?
    public var typeID: String?
    public var start: WallTime
    public var end: WallTime
    public var weekday: Weekday?
    public var weeks: Set<Int>
    public var subgroup: Int
    public var dateRange: ClosedRange<LocalDate>?
    public var date: LocalDate?
    public var rooms: [RoomKey]
    public var teachers: [String]
    public var groups: [String]
    public var note: String?
    public var isAnnouncement: Bool
    public var isExam: Bool

    public init(
        subject: String, subjectFullName: String? = nil, typeID: String? = nil, start: WallTime, end: WallTime,
        weekday: Weekday? = nil, weeks: Set<Int> = [], subgroup: Int = 0, dateRange: ClosedRange<LocalDate>? = nil,
        date: LocalDate? = nil, rooms: [RoomKey] = [], teachers: [String] = [], groups: [String] = [],
        note: String? = nil, isAnnouncement: Bool = false, isExam: Bool = false
    ) {
        self.subject = subject
        self.subjectFullName = subjectFullName
        self.typeID = typeID
        self.start = start
        self.end = end
        self.weekday = weekday
        self.weeks = weeks
        self.subgroup = subgroup
        self.dateRange = dateRange
        self.date = date
        self.rooms = rooms
        self.teachers = teachers
        self.groups = groups
        self.note = note
        self.isAnnouncement = isAnnouncement
        self.isExam = isExam
    }

    /// What makes two records the same lesson, whichever schedule (a group's, another group's of
    /// the same stream, a teacher's) they come from: subject, type, time, days, weeks, subgroup,
    /// rooms and groups. Teachers are left out because a teacher's own schedule may list only
    /// that teacher for a lesson several teachers give; the note is left out so that a changed
    /// note updates the lesson instead of making a new one.
    public var identity: String {
        let weeks = self.weeks.sorted().map(String.init).joined(separator: ",")
        let rooms = Set(self.rooms).sorted().map(\.displayName).joined(separator: ",")
        let groups = Set(self.groups).sorted().joined(separator: ",")
        let parts: [String] = [
            subject, subjectFullName ?? "", typeID ?? "", start.description, end.description,
            weekday.map { String($0.rawValue) } ?? "", weeks, String(subgroup),
            dateRange.map { "\($0.lowerBound.iso)..\($0.upperBound.iso)" } ?? "", date?.iso ?? "", rooms, groups,
            isAnnouncement ? "a" : "", isExam ? "e" : "",
        ]
        return parts.joined(separator: "|")
    }
}

/// A subject of a study plan (seed 003): normative, professional or free choice, with its groups.
public struct ImportedSubject: Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case normative
        case professional = "prof"
        case freeChoice = "selective"
    }

    public var id: Int
    public var name: String
    public var faculty: String?
    public var speciality: String
    public var year: Int
    public var trimester: Int?
    public var kind: Kind
    public var numberOfGroups: Int

    public init(
        id: Int, name: String, faculty: String?, speciality: String, year: Int, trimester: Int?, kind: Kind,
        numberOfGroups: Int
    ) {
        self.id = id
        self.name = name
        self.faculty = faculty
        self.speciality = speciality
        self.year = year
        self.trimester = trimester
        self.kind = kind
        self.numberOfGroups = numberOfGroups
    }
}
