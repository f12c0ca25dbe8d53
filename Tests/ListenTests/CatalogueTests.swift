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
        #expect(SleepTimer.isCancelled(by: .trackSkip(position: 0)))
        #expect(SleepTimer.isCancelled(by: .trackPrev(position: 0)))
        #expect(!SleepTimer.isCancelled(by: .trackNext))
        #expect(!SleepTimer.isCancelled(by: .playbackPause(position: 3)))
    }
}
