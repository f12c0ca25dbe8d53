import Foundation
import Testing

@testable import Listen

@Suite struct CatalogueTests {
    @Test func kindsComeFromFoldersThenGenres() {
        #expect(MediaKind.detect(folders: ["Music", "Kino", "Gruppa krovi"], genre: "Rock") == .track)
        #expect(MediaKind.detect(folders: ["Podcasts", "Campus talk"], genre: nil) == .podcastEpisode)
        #expect(MediaKind.detect(folders: ["Audiobooks", "Master and Margarita"], genre: nil) == .audiobookChapter)
        #expect(MediaKind.detect(folders: ["Lectures", "Physics 101"], genre: nil) == .programmeEpisode)
        #expect(MediaKind.detect(folders: ["Inbox"], genre: "Speech") == .audiobookChapter)
        #expect(MediaKind.detect(folders: ["Inbox"], genre: "podcast") == .podcastEpisode)
        // The nearest folder decides.
        #expect(MediaKind.detect(folders: ["Podcasts", "Audiobooks"], genre: nil) == .audiobookChapter)
        #expect(MediaKind.podcastEpisode.parent == .podcast)
        #expect(MediaKind.track.isSpoken == false)
        #expect(MediaKind.audiobookChapter.isSpoken)
        #expect(ImageSize.allCases.compactMap(\.pixels) == [96, 300, 800])
    }

    @Test func sleepTimers() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let timer = try SleepTimer(.minutes(15), startedAt: start, isLiveRadio: false)
        #expect(timer.endsAt == start.addingTimeInterval(900))
        #expect(!timer.pauses(now: start.addingTimeInterval(899), itemEnded: true))
        #expect(timer.pauses(now: start.addingTimeInterval(900), itemEnded: false))
        let end = try SleepTimer(.endOfItem, startedAt: start, isLiveRadio: false)
        #expect(end.endsAt == nil)
        #expect(end.pauses(now: start, itemEnded: true))
        #expect(!end.pauses(now: start.addingTimeInterval(99_999), itemEnded: false))
        #expect(throws: PlayerError.self) { try SleepTimer(.minutes(20), startedAt: start, isLiveRadio: false) }
        #expect(throws: PlayerError.self) { try SleepTimer(.minutes(5), startedAt: start, isLiveRadio: true) }
    }

    /// Seed 001 §3.7: a manual next or previous turns off only the "end of this item" timer; a
    /// timer of minutes runs on through every step the listener takes (issue 35).
    @Test func onlyTheEndOfItemTimerEndsWithAManualStep() throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        let end = try SleepTimer(.endOfItem, startedAt: start, isLiveRadio: false)
        let steps: [PlayerAction] = [
            .trackSkip(position: 0), .trackPrev(position: 0), .trackChange(place: 2),
            .play(items: [QueueItem(mediaID: 1)], startAt: nil, contextID: nil),
        ]
        for step in steps { #expect(end.isCancelled(by: step), "\(step)") }
        #expect(!end.isCancelled(by: .trackNext), "the item ended by itself: the timer pauses, it is not cancelled")
        #expect(!end.isCancelled(by: .playbackPause(position: 3)))
        #expect(!end.isCancelled(by: .shuffleEnable))
        for minutes in SleepTimer.minuteChoices {
            let timer = try SleepTimer(.minutes(minutes), startedAt: start, isLiveRadio: false)
            for step in steps { #expect(!timer.isCancelled(by: step), "\(minutes) minutes, \(step)") }
            #expect(!timer.isCancelled(by: .trackNext))
            #expect(!timer.isCancelled(by: .repeatOneEnable))
            #expect(timer.isCancelled(by: .clearQueue), "nothing is left to pause")
        }
        #expect(end.isCancelled(by: .clearQueue))
    }
}
