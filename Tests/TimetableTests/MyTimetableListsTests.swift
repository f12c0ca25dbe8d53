import Foundation
import Testing

@testable import Timetable

/// The departments list, "my teachers" and the full-subject-names setting (issue 35, items 24
/// and 26), on data made by hand.
@Suite struct MyTimetableListsTests {
    static func lesson(
        _ id: Int64, _ subject: String, full: String? = nil, type: String? = "ЛК", teachers: [String],
        announcement: Bool = false
    ) -> Lesson {
        Lesson(
            id: id, subject: subject, subjectFullName: full, typeID: type, start: WallTime("09:00")!,
            end: WallTime("10:20")!, weekday: .monday,
            teachers: teachers.map { TeacherReference(urlID: $0.lowercased(), name: $0) }, groups: ["g"],
            isAnnouncement: announcement)
    }

    @Test func departmentsAreFoundAndSectionedByLetter() {
        let departments = [
            Department(abbreviation: "Информатики", name: "Кафедра информатики"),
            Department(abbreviation: "ВМиП", name: "Кафедра высшей математики и программирования"),
            Department(abbreviation: "Физики"),
        ]
        let all = Listing.departments(departments, search: nil, sections: .letter)
        #expect(all.map(\.title) == ["В", "И", "Ф"])
        #expect(all.flatMap(\.items).map(\.abbreviation) == ["ВМиП", "Информатики", "Физики"])
        // By the beginning of the abbreviation or of a word of the name, any case; inside the name
        // for three letters or more.
        func found(_ search: String) -> [String] {
            Listing.departments(departments, search: search, sections: .letter).flatMap(\.items).map(\.abbreviation)
        }
        #expect(found("вми") == ["ВМиП"])
        #expect(found("высшей") == ["ВМиП"])
        #expect(found("кафедра") == ["ВМиП", "Информатики"])
        #expect(found("форм") == ["Информатики"])
        #expect(found("физ") == ["Физики"])
        #expect(found("химии").isEmpty)
    }

    @Test func theTeachersOfLessonsWithWhatTheyTeach() {
        let lessons = [
            Self.lesson(1, "ВТ", full: "Веб-технологии", teachers: ["Смолякова О. Г."]),
            Self.lesson(2, "ВТ", full: "Веб-технологии", type: "ЛР", teachers: ["Смолякова О. Г.", "Андреев А. А."]),
            Self.lesson(3, "ВТ", type: "ЛР", teachers: ["Андреев А. А."]),
            Self.lesson(4, "РиАТ", type: "ЛК", teachers: ["Смолякова О. Г."]),
            Self.lesson(5, "Собрание", teachers: ["Декан Д. Д."], announcement: true),
            Self.lesson(6, "ФК", type: nil, teachers: []),
        ]
        let taught = TaughtSubjects.of(lessons)
        #expect(taught.map(\.teacher.name) == ["Андреев А. А.", "Смолякова О. Г."])
        #expect(taught[0].subjects == [.init(name: "ВТ", fullName: "Веб-технологии", typeIDs: ["ЛР"])])
        #expect(
            taught[1].subjects == [
                .init(name: "ВТ", fullName: "Веб-технологии", typeIDs: ["ЛК", "ЛР"]),
                .init(name: "РиАТ", fullName: nil, typeIDs: ["ЛК"]),
            ])
        #expect(TaughtSubjects.of([]).isEmpty)
    }

    @Test func fullSubjectNamesAreAChoice() throws {
        let lesson = Self.lesson(1, "ВТ", full: "Веб-технологии", teachers: [])
        #expect(DisplaySettings().subject(of: lesson) == "ВТ")
        #expect(DisplaySettings(fullSubjectNames: true).subject(of: lesson) == "Веб-технологии")
        // Without a full name (or an empty one), the abbreviation.
        #expect(DisplaySettings(fullSubjectNames: true).subject(of: Self.lesson(2, "ФК", teachers: [])) == "ФК")
        #expect(DisplaySettings(fullSubjectNames: true).subject("ФК", fullName: "") == "ФК")
        // Kept as JSON; what was kept before a setting existed reads as its default.
        let kept = try JSONEncoder().encode(DisplaySettings(fullSubjectNames: true))
        #expect(try JSONDecoder().decode(DisplaySettings.self, from: kept) == DisplaySettings(fullSubjectNames: true))
        #expect(try JSONDecoder().decode(DisplaySettings.self, from: Data("{}".utf8)) == DisplaySettings())
    }
}
