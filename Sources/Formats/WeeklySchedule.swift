import Foundation
import Localization
import Timetable

/// Reads the files of seed 004's "Schedule" app: `schedule.json` (an odd and an even week of
/// days with numbered pairs, `lesson` or a free slot's `windowMessage`), `teachers.json` (teacher
/// cards) and `user.json` (whose group the schedule is).
public enum OddEvenSchedule {
    struct ScheduleDTO: Decodable {
        var oddWeek: WeekDTO
        var evenWeek: WeekDTO
    }

    struct WeekDTO: Decodable {
        var days: [DayDTO]
    }

    struct DayDTO: Decodable {
        var weekday: Int
        var date: String?
        var slots: [SlotDTO]
    }

    struct SlotDTO: Decodable {
        var pairNumber: Int
        var startTime: String
        var endTime: String
        var lesson: LessonDTO?
        var windowMessage: String?
    }

    struct LessonDTO: Decodable {
        var name: String
        var type: String
        var teacher: TeacherDTO
        var room: String?
    }

    struct TeacherDTO: Decodable {
        var id: String
        var name: String
        var subject: String?
        var email: String?
        var description: String?
        var marksAttendance: String?
        var hasAutomat: Bool?
    }

    struct TeachersDTO: Decodable {
        var teachers: [TeacherDTO]
    }

    struct UserDTO: Decodable {
        var group: String?
    }

    /// What kind of seed-004 file this is.
    public enum File: Sendable {
        case schedule, teachers, user
    }

    public static func kind(of data: Data) -> File? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        if object["oddWeek"] != nil || object["evenWeek"] != nil { return .schedule }
        if object["teachers"] != nil { return .teachers }
        if object["group"] != nil { return .user }
        return nil
    }

    public static let lessonTypes = ["lecture", "practice", "lab"]

    /// The group's weekly schedule: odd-week lessons in study week 1, even-week ones in week 2 of
    /// the odd/even cycle, repeating from `termStart` to `termEnd` when they are given.
    public static func schedule(
        _ data: Data, group: String, termStart: LocalDate? = nil, termEnd: LocalDate? = nil, file: String? = nil
    ) throws -> TimetableImport {
        let dto: ScheduleDTO
        do {
            dto = try JSONDecoder().decode(ScheduleDTO.self, from: data)
        } catch let error as DecodingError {
            throw ImportError(error, file: file)
        }
        var result = TimetableImport()
        var lessons: [ImportedLesson] = []
        var teachers: [String: ImportedTeacher] = [:]
        var range: ClosedRange<LocalDate>?
        if let termStart { range = termStart...(termEnd ?? termStart.adding(days: 7 * 26 - 1)) }
        var notes: [WindowNote] = []
        var pairSlots: [Int: PairTimes.Slot] = [:]
        var pairsAgree = true
        for (weekName, week, number) in [("oddWeek", dto.oddWeek, 1), ("evenWeek", dto.evenWeek, 2)] {
            for (dayIndex, day) in week.days.enumerated() {
                let dayPath = "\(weekName).days[\(dayIndex)]"
                guard let weekday = Weekday(rawValue: day.weekday) else {
                    throw ImportError(
                        file: file, field: "\(dayPath).weekday",
                        detail: "{weekday} is not a weekday (1 Monday … 7 Sunday).",
                        ["weekday": String(describing: day.weekday)])
                }
                var pairs = Set<Int>()
                for (slotIndex, slot) in day.slots.enumerated() {
                    let path = "\(dayPath).slots[\(slotIndex)]"
                    guard pairs.insert(slot.pairNumber).inserted else {
                        throw ImportError(
                            file: file, field: "\(path).pairNumber",
                            detail: "pair {pair} is on this day twice.",
                            ["pair": String(describing: slot.pairNumber)])
                    }
                    guard let start = WallTime(slot.startTime) else {
                        throw ImportError(
                            file: file, field: "\(path).startTime",
                            detail: "“{text}” is not a time like 08:00.",
                            ["text": String(describing: slot.startTime)])
                    }
                    guard let end = WallTime(slot.endTime), start < end else {
                        throw ImportError(
                            file: file, field: "\(path).endTime",
                            detail: "“{text}” is not a time after the start.",
                            ["text": String(describing: slot.endTime)])
                    }
                    let pairSlot = PairTimes.Slot(start: start, end: end)
                    if let known = pairSlots[slot.pairNumber], known != pairSlot { pairsAgree = false }
                    pairSlots[slot.pairNumber] = pairSlot
                    guard let lesson = slot.lesson else {
                        if let message = slot.windowMessage.flatMap({ IIS.nonEmpty(clean($0)) }) {
                            notes.append(
                                WindowNote(
                                    weekday: weekday, weeks: [number], start: start, end: end,
                                    text: String(message.prefix(200))))
                        }
                        continue
                    }
                    guard lessonTypes.contains(lesson.type) else {
                        throw ImportError(
                            file: file, field: "\(path).lesson.type",
                            detail: "“{type}” is not a lesson type; expected lecture, practice or lab.",
                            ["type": String(describing: lesson.type)])
                    }
                    guard let teacher = Self.teacher(lesson.teacher) else {
                        throw ImportError(
                            file: file, field: "\(path).lesson.teacher", detail: "needs an id and a name.")
                    }
                    teachers[teacher.urlID] = teachers[teacher.urlID] ?? teacher
                    let room = lesson.room.flatMap { IIS.nonEmpty($0) }
                    let roomKey = room.map { RoomKey(name: $0, building: nil) }
                    if let roomKey {
                        result.rooms.append(
                            ImportedRoom(key: roomKey, floor: nil, isOffCampus: roomKey.name.first?.isNumber != true))
                    }
                    lessons.append(
                        ImportedLesson(
                            subject: lesson.name.trimmingCharacters(in: .whitespaces), typeID: lesson.type,
                            start: start,
                            end: end, weekday: weekday, weeks: [number], dateRange: range,
                            rooms: roomKey.map { [$0] } ?? [], teachers: [teacher.urlID], groups: [group]))
                }
            }
        }
        result.teachers = teachers.values.sorted { $0.urlID < $1.urlID }
        result.groups = [ImportedGroup(name: group)]
        result.windowNotes = [group: notes]
        // The pairs the file numbers, when they run 1, 2, … with one time each, in order.
        let numbers = pairSlots.keys.sorted()
        if pairsAgree, !numbers.isEmpty, numbers == Array(1...numbers.count) {
            let pairs = PairTimes(slots: numbers.compactMap { pairSlots[$0] })
            if PairTimes(text: pairs.text) != nil { result.pairTimes = pairs }
        }
        result.schedules = [
            ImportedSchedule(
                owner: .group(group), term: TermDates(lessonsStart: range?.lowerBound, lessonsEnd: range?.upperBound),
                lessons: lessons)
        ]
        return try result.checked(file: file)
    }

    /// `teachers.json`: teachers with the students' cards about them.
    public static func teachers(_ data: Data, file: String? = nil) throws -> TimetableImport {
        let dto: TeachersDTO
        do {
            dto = try JSONDecoder().decode(TeachersDTO.self, from: data)
        } catch let error as DecodingError {
            throw ImportError(error, file: file)
        }
        var result = TimetableImport()
        for (index, teacherDTO) in dto.teachers.enumerated() {
            guard let teacher = Self.teacher(teacherDTO) else {
                throw ImportError(file: file, field: "teachers[\(index)]", detail: "needs an id and a name.")
            }
            result.teachers.append(teacher)
            let attendance = teacherDTO.marksAttendance.flatMap { TeacherCard.Attendance(rawValue: $0.lowercased()) }
            if let raw = teacherDTO.marksAttendance, attendance == nil, !raw.isEmpty {
                throw ImportError(
                    file: file, field: "teachers[\(index)].marksAttendance",
                    detail: "“{text}” is not yes, no or sometimes.", ["text": String(describing: raw)])
            }
            result.teacherCards[teacher.urlID] = TeacherCard(
                description: teacherDTO.description.flatMap { IIS.nonEmpty(clean($0)) },
                subject: teacherDTO.subject.flatMap { IIS.nonEmpty(clean($0)) }, marksAttendance: attendance,
                automaticPassPossible: teacherDTO.hasAutomat)
        }
        return try result.checked(file: file)
    }

    /// `user.json`: the student's group, which the schedule belongs to.
    public static func group(fromUser data: Data, file: String? = nil) throws -> String {
        do {
            guard let group = IIS.nonEmpty(try JSONDecoder().decode(UserDTO.self, from: data).group) else {
                throw ImportError(file: file, field: "group", detail: "is empty: whose schedule is this?")
            }
            return group
        } catch let error as DecodingError {
            throw ImportError(error, file: file)
        }
    }

    /// "Сидорова Е.В." → last name Сидорова, initials Е. and В.
    static func teacher(_ dto: TeacherDTO) -> ImportedTeacher? {
        guard let id = IIS.nonEmpty(dto.id), let name = IIS.nonEmpty(clean(dto.name)) else { return nil }
        let words = name.split(separator: " ").map(String.init)
        let last = words.first ?? name
        let given = words.dropFirst().joined(separator: " ")
        let parts: [String] =
            given.contains(".") && !given.contains(" ")
            ? given.split(separator: ".").map { String($0) + "." }
            : given.split(separator: " ").map(String.init)
        let first = parts.first ?? ""
        let middle = parts.count > 1 ? parts[1] : nil
        return ImportedTeacher(
            urlID: id, firstName: first, middleName: middle, lastName: last,
            email: dto.email.flatMap { IIS.nonEmpty($0) })
    }

    /// Without control characters (seed 004 strips them, U+0000–U+001F and U+007F–U+009F).
    static func clean(_ text: String) -> String {
        String(
            String.UnicodeScalarView(
                text.unicodeScalars.filter { !($0.value < 0x20 || (0x7F...0x9F).contains($0.value)) }))
    }
}

/// Reads the files of seed 003's "KMAScheduler": `subjects.json` (the study plan: normative,
/// professional and free-choice subjects, each with numbered groups) and `schedule.json` (dated
/// lessons of a subject's group).
public enum KMASchedule {
    struct SubjectDTO: Decodable {
        var id: Int
        var name: String
        var faculty: String?
        var specialty: String
        var year: Int
        var trimester: Int?
        var type: String
        var numberOfGroups: Int
    }

    struct LessonDTO: Decodable {
        var id: Int
        var name: String
        var group: Int
        var date: String
        var time: String
        var auditorium: String?
        var notes: String?
        /// Where the auditorium is (the seed names them `Integer`; the files hold degrees).
        var latitude: Double?
        var longitude: Double?
    }

    /// The group of a subject's lessons: "294624-3" is group 3 of subject 294624.
    public static func groupName(subject: Int, group: Int) -> String {
        Electives.groupName(subject: subject, group: group)
    }

    /// The most groups one subject has (a subject of 94,624 groups kept an import busy for minutes;
    /// found by Fuzz/FuzzKMA).
    public static let maximumGroups = 100

    /// Reads the subjects and the lessons; each lesson lasts `minutes` (the files give only its
    /// start; NaUKMA's pairs are 80 minutes).
    public static func read(
        subjects subjectsData: Data, schedule scheduleData: Data, minutes: Int = 80, subjectsFile: String? = nil,
        scheduleFile: String? = nil
    ) throws -> TimetableImport {
        let subjectDTOs: [SubjectDTO]
        do {
            subjectDTOs = try JSONDecoder().decode([SubjectDTO].self, from: subjectsData)
        } catch let error as DecodingError {
            throw ImportError(error, file: subjectsFile)
        }
        var result = TimetableImport()
        var subjects: [Int: ImportedSubject] = [:]
        for (index, dto) in subjectDTOs.enumerated() {
            guard let kind = ImportedSubject.Kind(rawValue: dto.type) else {
                throw ImportError(
                    file: subjectsFile, field: "[\(index)].type",
                    detail: "“{type}” is not normative, prof or selective.", ["type": String(describing: dto.type)])
            }
            guard (1...Self.maximumGroups).contains(dto.numberOfGroups) else {
                throw ImportError(
                    file: subjectsFile, field: "[\(index)].numberOfGroups",
                    detail: "is {count}; a subject has 1 to {most} groups.",
                    [
                        "count": String(dto.numberOfGroups),
                        "most": String(Self.maximumGroups),
                    ])
            }
            let subject = ImportedSubject(
                id: dto.id, name: dto.name, faculty: dto.faculty.flatMap { IIS.nonEmpty($0) },
                speciality: dto.specialty,
                year: dto.year, trimester: dto.trimester, kind: kind, numberOfGroups: dto.numberOfGroups)
            subjects[dto.id] = subject
            result.subjects.append(subject)
            // A group's title is the subject's name, data alone: its number is in its name
            // ("294624-3"), and a word such as "group" would stay in the language of the import.
            for group in 1...dto.numberOfGroups {
                result.groups.append(ImportedGroup(name: groupName(subject: dto.id, group: group), title: dto.name))
            }
        }
        let lessonDTOs: [LessonDTO]
        do {
            lessonDTOs = try JSONDecoder().decode([LessonDTO].self, from: scheduleData)
        } catch let error as DecodingError {
            throw ImportError(error, file: scheduleFile)
        }
        var byGroup: [String: [ImportedLesson]] = [:]
        for (index, dto) in lessonDTOs.enumerated() {
            let path = "[\(index)]"
            guard let subject = subjects[dto.id] else {
                throw ImportError(
                    file: scheduleFile, field: "\(path).id", detail: "{id} is not a subject of the subjects file.",
                    ["id": String(describing: dto.id)]
                )
            }
            guard let date = LocalDate(dotted: dto.date) else {
                throw ImportError(
                    file: scheduleFile, field: "\(path).date",
                    LocalDate.read(dotted: dto.date) == .failure(.outOfRange)
                        ? Phrase(
                            "“{text}” is outside the dates Campus works with, 01.01.1900 to 31.12.2200.",
                            ["text": dto.date])
                        : Phrase("“{text}” is not a date like 11.04.2024.", ["text": dto.date])
                )
            }
            guard let start = WallTime(dto.time), let end = WallTime(minutes: start.minutes + minutes) else {
                throw ImportError(
                    file: scheduleFile, field: "\(path).time", detail: "“{text}” is not a time like 11:40.",
                    ["text": String(describing: dto.time)])
            }
            // Group 0 is every group of the subject (a lecture for the whole stream).
            guard (0...subject.numberOfGroups).contains(dto.group) else {
                throw ImportError(
                    file: scheduleFile, field: "\(path).group",
                    detail:
                        "{group} is not a group of {name} (1–{count}, or 0 for all).",
                    [
                        "group": String(describing: dto.group), "name": String(describing: subject.name),
                        "count": String(subject.numberOfGroups),
                    ])
            }
            let groups =
                dto.group == 0
                ? (1...subject.numberOfGroups).map { groupName(subject: dto.id, group: $0) }
                : [groupName(subject: dto.id, group: dto.group)]
            var room = dto.auditorium.flatMap { IIS.nonEmpty($0) }.map(room)
            if dto.latitude != nil || dto.longitude != nil, !(dto.latitude == 0 && dto.longitude == 0) {
                // 0, 0 is how a file says "no place"; anything else must be a place on the globe.
                guard let point = MapPoint(latitude: dto.latitude, longitude: dto.longitude) else {
                    throw ImportError(
                        file: scheduleFile, field: "\(path).latitude",
                        detail: "latitude and longitude must both be given, −90 to 90 and −180 to 180.")
                }
                room?.point = point
            }
            if let room { result.rooms.append(room) }
            let lesson = ImportedLesson(
                subject: IIS.nonEmpty(dto.name) ?? subject.name, start: start, end: end, date: date,
                rooms: room.map { [$0.key] } ?? [], groups: groups, note: dto.notes.flatMap { IIS.nonEmpty($0) })
            for group in groups { byGroup[group, default: []].append(lesson) }
        }
        // Every group of every subject gets its schedule, so that a lesson taken out of the file
        // goes from the timetable too.
        result.schedules = result.groups.map {
            ImportedSchedule(owner: .group($0.name), lessons: byGroup[$0.name] ?? [])
        }
        return try result.checked(file: scheduleFile)
    }

    /// NaUKMA writes rooms building first ("1-120"); they keep the name people know them by.
    static func room(_ text: String) -> ImportedRoom {
        ImportedRoom(key: RoomKey(name: text, building: nil), floor: nil, isOffCampus: false)
    }
}
