import CampusTestSupport
import Foundation
import Listen
import Testing

/// AutoDJ's choice (issue 42): weights, "one every N songs", time blocks in the institution's
/// zone, and the repeat window.
@Suite struct AutoDJTests {
    static func playlist(_ id: Int64, _ rule: RotationPlaylist.Rule, enabled: Bool = true) -> RotationPlaylist {
        RotationPlaylist(id: id, stationID: 1, name: "P\(id)", rule: rule, sources: [.parent(id)], enabled: enabled)
    }

    static var minsk: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "Europe/Minsk") ?? .gmt
        return calendar
    }

    /// 2026-12-07 is a Monday.
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        return formatter.date(from: text) ?? .distantPast
    }

    /// Plays `count` picks one after another, a track a minute, each pick seeing the ones before.
    static func run(
        _ candidates: [AutoDJ.Candidate], count: Int, from start: Date, window: TimeInterval = 0, seed: UInt64 = 42
    ) -> [AutoDJ.Play] {
        var generator = SeededGenerator(state: seed)
        var recent: [AutoDJ.Play] = []
        for index in 0..<count {
            let at = start.addingTimeInterval(Double(index) * 60)
            guard
                let pick = AutoDJ.next(
                    candidates, recent: recent, at: at, calendar: minsk, repeatWindow: window, using: &generator)
            else { break }
            recent.insert(AutoDJ.Play(mediaID: pick.mediaID, playlistID: pick.playlistID, at: at), at: 0)
        }
        return recent.reversed()
    }

    @Test func rotationFollowsTheWeights() {
        let candidates = [
            AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 3)), mediaIDs: [10, 11, 12]),
            AutoDJ.Candidate(playlist: Self.playlist(2, .rotation(weight: 1)), mediaIDs: [20, 21]),
        ]
        let plays = Self.run(candidates, count: 4000, from: Self.date("2026-12-07T10:00:00Z"))
        let first = plays.filter { $0.playlistID == 1 }.count
        // A binomial count of 4,000 at 3/4: within five standard deviations of 3,000.
        let deviation = (4000.0 * 0.75 * 0.25).squareRoot()
        #expect(abs(Double(first) - 3000) < 5 * deviation, "\(first)")
    }

    @Test func oneEveryNSongsComesOnItsTurn() {
        let candidates = [
            AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 1)), mediaIDs: [10, 11]),
            AutoDJ.Candidate(playlist: Self.playlist(2, .every(songs: 3)), mediaIDs: [90]),
        ]
        let plays = Self.run(candidates, count: 20, from: Self.date("2026-12-07T10:00:00Z"))
        let pattern = plays.map { $0.playlistID == 2 ? "J" : "s" }.joined()
        #expect(pattern == "sssJsssJsssJsssJsssJ", "\(pattern)")
    }

    @Test func aTimeBlockTakesOverWhileItRunsInTheInstitutionsZone() {
        // Weekdays 08:00–10:00 in Minsk (UTC+3): 05:00–07:00 UTC.
        let morning = TimeBlock(weekdays: [1, 2, 3, 4, 5], from: 8 * 60, to: 10 * 60)
        let candidates = [
            AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 1)), mediaIDs: [10]),
            AutoDJ.Candidate(playlist: Self.playlist(2, .block(morning, weight: 1)), mediaIDs: [20]),
        ]
        var generator = SeededGenerator(state: 1)
        func pick(_ at: String) -> Int64? {
            AutoDJ.next(
                candidates, recent: [], at: Self.date(at), calendar: Self.minsk, repeatWindow: 0, using: &generator)?
                .playlistID
        }
        #expect(pick("2026-12-07T05:30:00Z") == 2)  // Monday 08:30 in Minsk.
        #expect(pick("2026-12-07T07:00:00Z") == 1)  // 10:00: the block has ended.
        #expect(pick("2026-12-07T04:59:00Z") == 1)  // 07:59.
        #expect(pick("2026-12-12T05:30:00Z") == 1)  // Saturday.
        // A night block from Friday 23:00 runs into Saturday until 02:00.
        let night = TimeBlock(weekdays: [5], from: 23 * 60, to: 2 * 60)
        #expect(night.contains(Self.date("2026-12-11T21:30:00Z"), calendar: Self.minsk))  // Fri 00:30 Sat.
        #expect(night.contains(Self.date("2026-12-11T22:30:00Z"), calendar: Self.minsk))  // Sat 01:30.
        #expect(!night.contains(Self.date("2026-12-11T23:30:00Z"), calendar: Self.minsk))  // Sat 02:30.
        #expect(!night.contains(Self.date("2026-12-10T22:30:00Z"), calendar: Self.minsk))  // Fri 01:30.
        #expect(TimeBlock(mask: night.mask, from: 0, to: 1).weekdays == [5])
    }

    @Test func aTrackWaitsForTheRepeatWindowWhileAnotherCanPlay() {
        let candidates = [
            AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 1)), mediaIDs: [10, 11, 12, 13])
        ]
        // A track a minute and a window of three minutes: no track within three plays of itself.
        let plays = Self.run(candidates, count: 400, from: Self.date("2026-12-07T10:00:00Z"), window: 180)
        for (index, play) in plays.enumerated() {
            let before = plays[max(0, index - 3)..<index].map(\.mediaID)
            #expect(!before.contains(play.mediaID), "\(index)")
        }
        // With one track only, it plays again rather than nothing.
        let single = [AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 1)), mediaIDs: [10])]
        #expect(Self.run(single, count: 3, from: Self.date("2026-12-07T10:00:00Z"), window: 3600).count == 3)
    }

    @Test func disabledOrEmptyPlaylistsPlayNothing() {
        var generator = SeededGenerator(state: 3)
        let none = AutoDJ.next(
            [
                AutoDJ.Candidate(playlist: Self.playlist(1, .rotation(weight: 1), enabled: false), mediaIDs: [10]),
                AutoDJ.Candidate(playlist: Self.playlist(2, .rotation(weight: 1)), mediaIDs: []),
            ], recent: [], at: Date(), calendar: Self.minsk, repeatWindow: 0, using: &generator)
        #expect(none == nil)
        // A station of a time block only plays it outside the block too, rather than fall silent.
        let block = TimeBlock(weekdays: [6], from: 0, to: 60)
        let outside = AutoDJ.next(
            [AutoDJ.Candidate(playlist: Self.playlist(3, .block(block, weight: 1)), mediaIDs: [30])], recent: [],
            at: Self.date("2026-12-07T10:00:00Z"), calendar: Self.minsk, repeatWindow: 0, using: &generator)
        #expect(outside?.mediaID == 30)
    }
}

/// A show's slot (issue 42): when its DJs may broadcast.
@Suite struct RadioShowTests {
    @Test func aDJIsLetOnInTheSlotAndItsGraceOnly() {
        let calendar = AutoDJTests.minsk
        // Mondays 22:00–01:00 in Minsk (19:00–22:00 UTC).
        let show = RadioShow(
            id: 1, stationID: 1, title: "Night", hostIDs: [7],
            when: .weekly(TimeBlock(weekdays: [1], from: 22 * 60, to: 60)))
        func admits(_ at: String) -> Bool { show.admits(AutoDJTests.date(at), calendar: calendar) }
        #expect(admits("2026-12-07T19:30:00Z"))  // Monday 22:30.
        #expect(admits("2026-12-07T21:30:00Z"))  // Tuesday 00:30, the same night.
        #expect(admits("2026-12-07T18:56:00Z"))  // 21:56: within the five minutes' grace.
        #expect(!admits("2026-12-07T18:50:00Z"))  // 21:50.
        #expect(admits("2026-12-07T22:04:00Z"))  // 01:04 on Tuesday: grace after the end.
        #expect(!admits("2026-12-07T22:10:00Z"))
        #expect(!admits("2026-12-08T19:30:00Z"))  // Tuesday 22:30: not its day.
        #expect(show.minutes == 180)
        let first = show.firstStart(onOrAfter: AutoDJTests.date("2026-12-09T10:00:00Z"), calendar: calendar)
        #expect(first == AutoDJTests.date("2026-12-14T19:00:00Z"))  // The next Monday, 22:00 in Minsk.
        let once = RadioShow(
            id: 2, stationID: 1, title: "Debate", hostIDs: [7],
            when: .once(start: AutoDJTests.date("2026-12-10T15:00:00Z"), end: AutoDJTests.date("2026-12-10T16:00:00Z")))
        #expect(once.admits(AutoDJTests.date("2026-12-10T14:56:00Z"), calendar: calendar))
        #expect(!once.admits(AutoDJTests.date("2026-12-10T16:06:00Z"), calendar: calendar))
        #expect(RadioShow.djAccount(user: RadioShow.djUser(42)) == 42 && RadioShow.djAccount(user: "source") == nil)
    }
}

/// Listener statistics (issue 42) from sessions.
@Suite struct ListenerStatisticsTests {
    @Test func uniquePeakAndHoursPerDayAndShow() {
        let calendar = AutoDJTests.minsk
        let base = AutoDJTests.date("2026-12-07T08:00:00Z")  // Monday 11:00 in Minsk.
        func at(_ minutes: Double) -> Date { base.addingTimeInterval(minutes * 60) }
        let sessions = [
            ListenerStatistics.Session(listener: "a", start: at(0), end: at(60), showID: 1),
            ListenerStatistics.Session(listener: "b", start: at(30), end: at(90), showID: 1),
            // "a" again, reconnecting the moment it left: not two at once.
            ListenerStatistics.Session(listener: "a", start: at(60), end: at(120), showID: 1),
            ListenerStatistics.Session(listener: "c", start: at(45), end: at(50)),
            // Over midnight in Minsk (21:00 UTC): an hour on each day.
            ListenerStatistics.Session(
                listener: "d", start: AutoDJTests.date("2026-12-07T20:00:00Z"),
                end: AutoDJTests.date("2026-12-07T22:00:00Z")),
        ]
        let days = ListenerStatistics.days(
            sessions, days: 2, until: AutoDJTests.date("2026-12-08T10:00:00Z"), calendar: calendar)
        #expect(days.count == 2)
        let monday = days[0].figures
        #expect(monday.uniqueListeners == 4 && monday.sessions == 5)
        #expect(monday.peakListeners == 3)  // a, b and c at 11:45.
        #expect(abs(monday.hours - (60 + 60 + 60 + 5 + 60) / 60.0) < 1e-9, "\(monday.hours)")
        let tuesday = days[1].figures
        #expect(tuesday.uniqueListeners == 1 && abs(tuesday.hours - 1) < 1e-9 && tuesday.peakListeners == 1)
        let show = ListenerStatistics.shows(sessions)[1]
        #expect(show?.uniqueListeners == 2 && show?.peakListeners == 2 && show?.sessions == 3)
        #expect(ListenerStatistics.peak([]) == 0)
    }
}
