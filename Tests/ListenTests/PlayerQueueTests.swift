import Foundation
import Testing

@testable import Listen

/// A generator with a fixed sequence, so shuffles are repeatable.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}

@Suite struct PlayerQueueTests {
    var random = SeededGenerator(state: 42)

    func items(_ ids: ClosedRange<Int64>, hidden: Set<Int64> = []) -> [QueueItem] {
        ids.map { QueueItem(mediaID: $0, isHidden: hidden.contains($0)) }
    }

    func ids(_ state: PlayerState) -> [Int64] { state.queue.map(\.mediaID) }

    @Test mutating func playStartsAtTheGivenItemOfItsContext() throws {
        var player = PlayerState()
        try player.apply(.initialize, random: &random)
        #expect(player.currentItem == nil)
        try player.apply(.play(items: items(1...5), startAt: 3, contextID: "album:7"), random: &random)
        #expect(player.currentItem?.mediaID == 3)
        #expect(player.isPlaying)
        #expect(player.contextID == "album:7")
        #expect(throws: PlayerError.self) {
            try player.apply(.play(items: items(1...5), startAt: 9, contextID: nil), random: &random)
        }
        #expect(throws: PlayerError.self) {
            try player.apply(.play(items: [], startAt: nil, contextID: nil), random: &random)
        }
    }

    /// Seed 001's Listing 9 sends the modes with `play`: the new queue plays in them; a `play`
    /// without them keeps the player's own (issue 35).
    @Test mutating func playTakesTheModesItIsSent() throws {
        var player = PlayerState()
        try player.apply(
            .play(items: items(1...20), startAt: 7, contextID: "recommended", shuffle: true, repeatMode: .disabled),
            random: &random)
        #expect(player.shuffle && player.repeatMode == .disabled)
        #expect(player.currentItem?.mediaID == 7 && player.current == 0, "the chosen item first")
        #expect(ids(player) != Array(1...20) && Set(ids(player)) == Set(1...20))
        try player.apply(.play(items: items(1...5), startAt: 2, contextID: nil, repeatMode: .one), random: &random)
        #expect(player.shuffle, "kept")
        #expect(player.repeatMode == .one)
        #expect(player.currentItem?.mediaID == 2)
        try player.apply(.play(items: items(1...5), startAt: 4, contextID: nil, shuffle: false), random: &random)
        #expect(!player.shuffle && ids(player) == [1, 2, 3, 4, 5] && player.current == 3)
        #expect(player.repeatMode == .one, "kept")
        // A refused play changes no mode.
        #expect(throws: PlayerError.self) {
            try player.apply(.play(items: [], startAt: nil, contextID: nil, shuffle: true), random: &random)
        }
        #expect(!player.shuffle)
    }

    @Test mutating func aQueueSavedByAnotherPlayerIsTakenPausedWithoutHistory() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...3), startAt: nil, contextID: "album:1"), random: &random)
        try player.apply(.shuffleEnable, random: &random)
        let events = try player.apply(.restore(items: items(7...10), current: 9, position: 42), random: &random)
        #expect(events.isEmpty)
        #expect(ids(player) == [7, 8, 9, 10])
        #expect(player.currentItem?.mediaID == 9)
        #expect(player.position == 42)
        #expect(!player.isPlaying && !player.shuffle && player.contextID == nil)
        // An unknown current item starts at the first; an empty queue clears it.
        try player.apply(.restore(items: items(1...2), current: 99, position: 5), random: &random)
        #expect(player.currentItem?.mediaID == 1)
        try player.apply(.restore(items: [], current: nil, position: 5), random: &random)
        #expect(player.currentItem == nil && player.position == 0)
    }

    @Test mutating func nextSkipAndPreviousWithRepeatModes() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...3), startAt: nil, contextID: nil), random: &random)
        #expect(try player.apply(.trackNext, random: &random) == [.init(mediaID: 1, outcome: .ended, position: 0)])
        #expect(player.currentItem?.mediaID == 2)
        #expect(
            try player.apply(.trackSkip(position: 12), random: &random) == [
                .init(mediaID: 2, outcome: .skipped, position: 12)
            ])
        #expect(player.currentItem?.mediaID == 3)
        // At the end without repeat the player stops on the last item.
        try player.apply(.trackNext, random: &random)
        #expect(!player.isPlaying)
        #expect(player.currentItem?.mediaID == 3)
        // Going back: more than three seconds in restarts the item, less goes to the previous one.
        try player.apply(.trackPrev(position: 40), random: &random)
        #expect(player.currentItem?.mediaID == 3)
        try player.apply(.trackPrev(position: 1), random: &random)
        #expect(player.currentItem?.mediaID == 2)

        // Repeat one replays the item when it ends, but a skip still moves on.
        try player.apply(.repeatOneEnable, random: &random)
        try player.apply(.trackNext, random: &random)
        #expect(player.currentItem?.mediaID == 2)
        try player.apply(.trackSkip(position: 0), random: &random)
        #expect(player.currentItem?.mediaID == 3)
        // Repeat all wraps around in both directions.
        try player.apply(.repeatAllEnable, random: &random)
        try player.apply(.trackNext, random: &random)
        #expect(player.currentItem?.mediaID == 1)
        try player.apply(.trackPrev(position: 0), random: &random)
        #expect(player.currentItem?.mediaID == 3)
        try player.apply(.repeatDisable, random: &random)
        #expect(player.repeatMode == .disabled)
    }

    @Test mutating func hiddenItemsStayInTheQueueButAreSkipped() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...5, hidden: [1, 3]), startAt: nil, contextID: nil), random: &random)
        #expect(ids(player) == [1, 2, 3, 4, 5])
        #expect(player.currentItem?.mediaID == 2)
        try player.apply(.trackNext, random: &random)
        #expect(player.currentItem?.mediaID == 4)
        try player.apply(.trackPrev(position: 0), random: &random)
        #expect(player.currentItem?.mediaID == 2)
        #expect(throws: PlayerError.self) { try player.apply(.trackChange(place: 2), random: &random) }
        try player.apply(.repeatAllEnable, random: &random)
        try player.apply(.trackChange(place: 4), random: &random)
        try player.apply(.trackNext, random: &random)
        #expect(player.currentItem?.mediaID == 2)
    }

    @Test mutating func shuffleKeepsTheCurrentItemAndTurnsBack() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...20), startAt: 7, contextID: nil), random: &random)
        try player.apply(.shuffleEnable, random: &random)
        #expect(player.shuffle)
        #expect(player.currentItem?.mediaID == 7)
        #expect(player.current == 0)
        #expect(Set(ids(player)) == Set(1...20))
        #expect(ids(player) != Array(1...20))
        try player.apply(.trackNext, random: &random)
        let second = player.currentItem?.mediaID
        try player.apply(.shuffleDisable, random: &random)
        #expect(ids(player) == Array(1...20))
        #expect(player.currentItem?.mediaID == second)

        // Shuffle with repeat all plays every item once per round, then wraps.
        try player.apply(.shuffleEnable, random: &random)
        try player.apply(.repeatAllEnable, random: &random)
        var heard: [Int64] = [player.currentItem!.mediaID]
        for _ in 1..<20 {
            try player.apply(.trackNext, random: &random)
            heard.append(player.currentItem!.mediaID)
        }
        #expect(Set(heard).count == 20)
        try player.apply(.trackNext, random: &random)
        #expect(player.currentItem?.mediaID == heard[0])
        #expect(player.isPlaying)
    }

    @Test mutating func deletingTheCurrentItemPlaysTheNextOne() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...6), startAt: 3, contextID: nil), random: &random)
        try player.apply(.trackDelete(places: [0, 2]), random: &random)
        #expect(ids(player) == [2, 4, 5, 6])
        #expect(player.currentItem?.mediaID == 4)
        #expect(player.position == 0)
        try player.apply(.trackDelete(places: [3]), random: &random)
        #expect(player.currentItem?.mediaID == 4)
        // Deleting the last remaining items stops the player.
        try player.apply(.trackDelete(places: [0, 1, 2]), random: &random)
        #expect(player.queue.isEmpty)
        #expect(player.currentItem == nil)
        #expect(!player.isPlaying)
        #expect(throws: PlayerError.self) { try player.apply(.trackDelete(places: [0]), random: &random) }
    }

    @Test mutating func reorderingAcrossTheCurrentItemKeepsItCurrent() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...5), startAt: 3, contextID: nil), random: &random)
        try player.apply(.trackReorder(from: 0, to: 4), random: &random)
        #expect(ids(player) == [2, 3, 4, 5, 1])
        #expect(player.currentItem?.mediaID == 3)
        try player.apply(.trackReorder(from: 4, to: 0), random: &random)
        #expect(ids(player) == [1, 2, 3, 4, 5])
        #expect(player.currentItem?.mediaID == 3)
        try player.apply(.trackReorder(from: 2, to: 4), random: &random)
        #expect(ids(player) == [1, 2, 4, 5, 3])
        #expect(player.current == 4)
        try player.apply(.trackNext, random: &random)
        #expect(!player.isPlaying)
        #expect(throws: PlayerError.self) { try player.apply(.trackReorder(from: 0, to: 9), random: &random) }
    }

    @Test mutating func enqueueNextPauseResumeChangeAndClear() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...3), startAt: nil, contextID: nil), random: &random)
        try player.apply(.enqueueNext([QueueItem(mediaID: 99)]), random: &random)
        #expect(ids(player) == [1, 99, 2, 3])
        let paused = try player.apply(.playbackPause(position: 31.5), random: &random)
        #expect(paused == [.init(mediaID: 1, outcome: .paused, position: 31.5)])
        #expect(!player.isPlaying)
        #expect(player.position == 31.5)
        #expect(try player.apply(.backgroundPause(position: 31.5), random: &random).isEmpty)
        try player.apply(.playbackResume, random: &random)
        #expect(player.isPlaying)
        #expect(player.position == 31.5)
        let changed = try player.apply(.trackChange(place: 3), random: &random)
        #expect(changed.map(\.outcome) == [.skipped])
        #expect(player.currentItem?.mediaID == 3)
        try player.apply(.playbackStarted, random: &random)
        try player.apply(.queueEnded, random: &random)
        #expect(!player.isPlaying)
        try player.apply(.clearQueue, random: &random)
        #expect(player.queue.isEmpty)
        #expect(throws: PlayerError.self) { try player.apply(.playbackResume, random: &random) }
        #expect(throws: PlayerError.self) { try player.apply(.trackNext, random: &random) }
        // Enqueueing into an empty queue makes the item current.
        try player.apply(.enqueueNext([QueueItem(mediaID: 5)]), random: &random)
        #expect(player.currentItem?.mediaID == 5)
    }

    @Test mutating func theStateSurvivesEncoding() throws {
        var player = PlayerState()
        try player.apply(.play(items: items(1...4, hidden: [2]), startAt: 3, contextID: "podcast:1"), random: &random)
        try player.apply(.shuffleEnable, random: &random)
        try player.apply(.repeatAllEnable, random: &random)
        try player.apply(.playbackPause(position: 12), random: &random)
        let copy = try JSONDecoder().decode(PlayerState.self, from: try JSONEncoder().encode(player))
        #expect(copy == player)
    }
}
