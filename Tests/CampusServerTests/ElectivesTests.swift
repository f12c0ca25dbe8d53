import CampusAPI
import CampusClient
import CampusTestSupport
import Foundation
import HTTPTypes
import Storage
import Testing
import Timetable

@testable import CampusServer
@testable import Formats

extension TimetableServerSuites {
    /// Seed 003's electives (issue 16, item 1) on a catalogue in the formats of its subjects.json and
    /// schedule.json, on SQLite and PostgreSQL: the normative subjects derived from a speciality and
    /// year, electives added with their groups, their lessons in my schedule, overlaps flagged, the
    /// set derived again when the year changes; every user's alone.
    @Suite struct ElectivesTests {
        static let software = "121. Інженерія програмного забезпечення"
        static let philology = "035. Філологія"

        static let subjects = #"""
            [
              {"id": 1, "name": "Алгоритми", "faculty": "ФІ", "specialty": "121. Інженерія програмного забезпечення", "year": 3, "trimester": 3, "type": "normative", "numberOfGroups": 2, "group": 0, "isRegistered": false},
              {"id": 2, "name": "Бази даних", "faculty": "ФІ", "specialty": "121. Інженерія програмного забезпечення", "year": 3, "trimester": 3, "type": "normative", "numberOfGroups": 1},
              {"id": 3, "name": "Розробка iOS-застосунків", "faculty": "ФІ", "specialty": "121. Інженерія програмного забезпечення", "year": 3, "trimester": 3, "type": "prof", "numberOfGroups": 2},
              {"id": 4, "name": "Кібербезпека", "faculty": "ФІ", "specialty": "121. Інженерія програмного забезпечення", "year": 3, "trimester": 3, "type": "selective", "numberOfGroups": 1},
              {"id": 5, "name": "Дискретна математика", "faculty": "ФІ", "specialty": "121. Інженерія програмного забезпечення", "year": 2, "trimester": 1, "type": "normative", "numberOfGroups": 1},
              {"id": 6, "name": "Вступ до мовознавства", "faculty": "ФГН", "specialty": "035. Філологія", "year": 1, "trimester": 1, "type": "normative", "numberOfGroups": 2}
            ]
            """#

        static let schedule = #"""
            [
              {"id": 1, "name": "Алгоритми", "group": 1, "date": "11.04.2024", "time": "08:30", "auditorium": "1-120"},
              {"id": 1, "name": "Алгоритми", "group": 2, "date": "11.04.2024", "time": "11:40", "auditorium": "1-120"},
              {"id": 3, "name": "Розробка iOS-застосунків", "group": 2, "date": "11.04.2024", "time": "09:00", "auditorium": "1-223"},
              {"id": 5, "name": "Дискретна математика", "group": 1, "date": "12.04.2024", "time": "08:30", "auditorium": "1-120"},
              {"id": 6, "name": "Вступ до мовознавства", "group": 1, "date": "11.04.2024", "time": "13:30", "auditorium": "4-225"}
            ]
            """#

        static func importCatalogue(_ server: TestServer) async throws {
            let database = try await Database.open(server.databaseLocation, logger: TestDatabases.logger)
            let data = try KMASchedule.read(subjects: Data(subjects.utf8), schedule: Data(schedule.utf8))
            _ = try await TimetableImporter(database: database, logger: TestDatabases.logger, timeZone: .gmt).store(
                data)
            await database.close()
        }

        @Test(arguments: TestDatabases.kinds)
        func electivesMakeMySchedule(_ kind: Database.Kind) async throws {
            try await TestServer.run(kind) { server in
                try await Self.importCatalogue(server)
                try await server.register("student@example.org")
                try await server.register("other@example.org")
                let token = try await server.login("student@example.org")
                let api = server.api(token: token)
                // The catalogue, searchable by a speciality's code.
                let found = try await server.api().listSubjectSpecialities(query: .init(q: "121")).ok.body.json
                #expect(
                    found.map(\.name) == [Self.software] && found.first?.years == [2, 3] && found.first?.code == "121")
                let profs = try await server.api().listSubjects(query: .init(speciality: Self.software, kind: .prof)).ok
                    .body.json
                #expect(profs.map(\.id) == [3])
                // Nothing can be added before a speciality and year.
                let early = try await server.request(
                    .put, "/api/v1/me/electives/3", json: #"{"group":1}"#, token: token)
                #expect(early.status == .conflict)
                // Speciality and year: the two normative subjects of year 3 are added, no group yet.
                var mine = try await api.setStudyProgramme(body: .json(.init(speciality: Self.software, year: 3))).ok
                    .body
                    .json
                #expect(mine.subjects.map(\.subject.id) == [1, 2] && mine.subjects.allSatisfy { $0.group == 0 })
                #expect(mine.subjects.allSatisfy { $0.kind == .normative })
                // Groups, a professional subject and a subject of another speciality (free choice).
                _ = try await api.chooseElective(path: .init(subjectId: 1), body: .json(.init(group: 1))).ok
                _ = try await api.chooseElective(path: .init(subjectId: 3), body: .json(.init(group: 2))).ok
                mine = try await api.chooseElective(path: .init(subjectId: 6), body: .json(.init(group: 1))).ok.body
                    .json
                #expect(mine.subjects.map(\.subject.id) == [1, 2, 3, 6])
                #expect(mine.subjects.map(\.kind) == [.normative, .normative, .prof, .selective])
                #expect(mine.subjects.first { $0.subject.id == 1 }?.groupName == "1-1")
                // Algorithms (group 1) at 08:30–09:50 and iOS (group 2) at 09:00: flagged.
                #expect(mine.overlaps.count == 1)
                let overlap = try #require(mine.overlaps.first)
                #expect(
                    Set([overlap.first.subject, overlap.second.subject]) == ["Алгоритми", "Розробка iOS-застосунків"])
                #expect(overlap.first.date == "2024-04-11")
                // My schedule holds the chosen groups' lessons, and no other group's.
                let week = try await api.getMySchedule(query: .init(from: "2024-04-08", to: "2024-04-14")).ok.body.json
                let lessons = week.days.flatMap(\.lessons)
                #expect(
                    lessons.map { "\($0.start) \($0.subject)" }.sorted() == [
                        "08:30 Алгоритми", "09:00 Розробка iOS-застосунків", "13:30 Вступ до мовознавства",
                    ])
                // What cannot be done.
                for (path, body, status) in [
                    // Another year's normative subject; a group the subject has not; no such subject.
                    ("/api/v1/me/electives/5", #"{"group":1}"#, HTTPResponse.Status.unprocessableContent),
                    ("/api/v1/me/electives/2", #"{"group":2}"#, .unprocessableContent),
                    ("/api/v1/me/electives/99", #"{"group":0}"#, .notFound),
                    ("/api/v1/me/electives/3", #"{"group":-1}"#, .unprocessableContent),
                ] {
                    #expect(try await server.request(.put, path, json: body, token: token).status == status, "\(path)")
                }
                #expect(try await server.request(.delete, "/api/v1/me/electives/1", token: token).status == .conflict)
                #expect(try await server.request(.delete, "/api/v1/me/electives/6", token: token).status == .noContent)
                #expect(try await server.request(.delete, "/api/v1/me/electives/6", token: token).status == .notFound)
                let bad = try await server.request(
                    .put, "/api/v1/me/electives", json: #"{"speciality":"999. Ніщо","year":3}"#, token: token)
                #expect(bad.status == .unprocessableContent)
                // Another year: its normative set replaces the old one; the professional subject stays.
                mine = try await api.setStudyProgramme(body: .json(.init(speciality: Self.software, year: 2))).ok.body
                    .json
                #expect(mine.subjects.map(\.subject.id) == [3, 5])
                #expect(mine.subjects.map(\.group) == [2, 0] && mine.year == 2)
                // Every user's alone.
                let other = try await server.login("other@example.org")
                let theirs = try await server.api(token: other).getMyElectives().ok.body.json
                #expect(theirs.subjects.isEmpty && theirs.speciality == nil)
                #expect(try await server.request(.delete, "/api/v1/me/electives/3", token: other).status == .notFound)
                #expect(try await server.request(.get, "/api/v1/me/electives").status == .unauthorized)
            }
        }
    }
}
