import Testing

@testable import Timetable

@Suite struct TeacherCardSummaryTests {
    @Test func theImportedCardCountsAsOneAnswer() {
        let imported = TeacherCard(
            description: "From the old app", marksAttendance: .sometimes, automaticPassPossible: true)
        let answers = [
            TeacherCardAnswer(
                id: 1, teacher: "t", description: nil, attendance: .yes, automaticPass: true, hidden: false),
            TeacherCardAnswer(
                id: 2, teacher: "t", description: "Rude", attendance: .yes, automaticPass: nil, hidden: true),
        ]
        let summary = TeacherCardSummary(imported: imported, answers: answers)
        #expect(summary.answers == 3)
        #expect(summary.attendance == [.sometimes: 1, .yes: 2])
        #expect(summary.majorityAttendance == .yes)
        #expect(summary.automaticPassYes == 2 && summary.majorityAutomaticPass == true)
        #expect(summary.descriptions.map(\.text) == ["From the old app", "Rude"])
        #expect(summary.descriptions.map(\.hidden) == [false, true])
        #expect(TeacherCardSummary(imported: nil, answers: []).majorityAttendance == nil)
    }
}
