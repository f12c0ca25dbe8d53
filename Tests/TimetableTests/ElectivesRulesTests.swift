import Testing

@testable import Timetable

/// Seed 003's rules for electives, on a catalogue made by hand.
@Suite struct ElectivesRulesTests {
    static let software = "121. Інженерія програмного забезпечення"
    static let philology = "035.01 Українська філологія"

    static func subject(_ id: Int, _ speciality: String, year: Int, _ kind: ImportedSubject.Kind) -> ImportedSubject {
        ImportedSubject(
            id: id, name: "S\(id)", faculty: nil, speciality: speciality, year: year, trimester: nil, kind: kind,
            numberOfGroups: 2)
    }

    static let catalogue = [
        subject(1, software, year: 3, .normative), subject(2, software, year: 3, .normative),
        subject(3, software, year: 3, .professional), subject(4, software, year: 3, .freeChoice),
        subject(5, software, year: 2, .normative), subject(6, philology, year: 1, .normative),
    ]

    @Test func codesAndSpecialities() {
        #expect(Electives.code(of: Self.software) == "121")
        #expect(Electives.code(of: Self.philology) == "035.01")
        #expect(Electives.code(of: "Філологія") == nil)
        let names = Set(Self.catalogue.map(\.speciality))
        #expect(Electives.speciality("121", among: names) == Self.software)
        #expect(Electives.speciality("035.01", among: names) == Self.philology)
        #expect(Electives.speciality("035.01 укр", among: names) == Self.philology)
        #expect(Electives.speciality("0", among: names) == Self.philology)  // one name begins so
        #expect(Electives.speciality("", among: names) == nil)  // both do
        #expect(Electives.speciality("999", among: names) == nil)
    }

    @Test func whatAStudentMayTake() {
        func kind(_ id: Int) -> ImportedSubject.Kind? {
            Electives.kind(of: Self.catalogue[id - 1], speciality: Self.software, year: 3)
        }
        #expect(kind(1) == .normative)
        #expect(kind(3) == .professional)
        #expect(kind(4) == .freeChoice)
        #expect(kind(5) == nil)  // normative of another year of one's own speciality
        #expect(kind(6) == .freeChoice)  // anything of another speciality
        #expect(Electives.normative(in: Self.catalogue, speciality: Self.software, year: 3).map(\.id) == [1, 2])
    }

    @Test func aNewYearDerivesTheNormativeSetAgainAndKeepsTheRest() {
        let chosen = [
            Electives.Choice(subjectID: 1, group: 2, isNormative: true),
            Electives.Choice(subjectID: 2, group: 1, isNormative: true),
            Electives.Choice(subjectID: 3, group: 2), Electives.Choice(subjectID: 6, group: 1),
        ]
        let second = Electives.rederive(chosen, catalogue: Self.catalogue, speciality: Self.software, year: 2)
        #expect(second.map(\.subjectID) == [5, 3, 6])
        #expect(second.map(\.group) == [0, 2, 1])
        #expect(second.map(\.isNormative) == [true, false, false])
        // Back to year 3: the normative groups chosen before are gone (they were removed).
        let third = Electives.rederive(second, catalogue: Self.catalogue, speciality: Self.software, year: 3)
        #expect(third.map(\.subjectID) == [1, 2, 3, 6] && third.map(\.group) == [0, 0, 2, 1])
        // Philology year 1: subject 6, chosen as free choice, becomes normative and keeps its group.
        let philology = Electives.rederive(third, catalogue: Self.catalogue, speciality: Self.philology, year: 1)
        #expect(philology.map(\.subjectID) == [6, 3] && philology.first?.group == 1)
        #expect(philology.first?.isNormative == true)
    }
}
