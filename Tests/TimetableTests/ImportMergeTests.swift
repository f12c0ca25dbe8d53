import Testing

@testable import Timetable

/// Two descriptions of one teacher, room, faculty or department in an import become one: the later
/// wins, and what it leaves out comes from the earlier.
@Suite struct ImportMergeTests {
    @Test func aLaterTeacherKeepsWhatOnlyTheEarlierOneSaid() {
        let earlier = ImportedTeacher(
            urlID: "i-ivanov", firstName: "Ivan", middleName: "Ivanovich", lastName: "Ivanov", rank: "docent",
            departments: ["ИИТ"], email: "ivanov@example.org", iisID: 7)
        let later = ImportedTeacher(urlID: "i-ivanov", firstName: "Ivan", lastName: "Ivanov", degree: "PhD")
        let merged = [earlier, later].merged(by: \.urlID)
        #expect(merged.count == 1)
        let teacher = merged["i-ivanov"]
        #expect(teacher?.middleName == "Ivanovich")
        #expect(teacher?.rank == "docent")
        #expect(teacher?.degree == "PhD")
        #expect(teacher?.departments == ["ИИТ"])
        #expect(teacher?.email == "ivanov@example.org")
        #expect(teacher?.iisID == 7)
    }

    @Test func theLaterRoomWinsWhereBothSaySomething() {
        let key = RoomKey(name: "209", building: 4)
        let earlier = ImportedRoom(key: key, floor: 2, capacity: 30, note: "old", isOffCampus: false)
        let later = ImportedRoom(key: key, floor: nil, capacity: 60, isOffCampus: false, iisID: 12)
        let room = [earlier, later].merged(by: \.key)[key]
        #expect(room?.floor == 2)
        #expect(room?.capacity == 60)
        #expect(room?.note == "old")
        #expect(room?.iisID == 12)
    }

    @Test func facultiesAndDepartmentsKeepTheirNames() {
        let faculties = [
            Faculty(id: 1, name: "Faculty of Computer Systems", abbreviation: "ФКСиС"),
            Faculty(id: 1, name: nil, abbreviation: "ФКСИС"),
        ].merged(by: \.id)
        #expect(faculties[1]?.name == "Faculty of Computer Systems")
        #expect(faculties[1]?.abbreviation == "ФКСИС")
        let departments = [
            Department(abbreviation: "ЭВМ", name: "Computers", iisID: nil),
            Department(abbreviation: "ЭВМ", name: nil, iisID: 3),
        ].merged(by: \.abbreviation)
        #expect(departments["ЭВМ"]?.name == "Computers")
        #expect(departments["ЭВМ"]?.iisID == 3)
    }
}
