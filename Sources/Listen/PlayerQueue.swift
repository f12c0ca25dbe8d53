import Foundation
import InputRules
import Localization

/// One playable item in a listener's queue (a track, podcast episode, audiobook chapter or
/// radio-programme episode), by its media id.
public struct QueueItem: Sendable, Equatable, Codable {
    public var mediaID: Int64
    /// Hidden items stay in the queue, shown as hidden, and are skipped when playing (seed 001).
    public var isHidden: Bool

    public init(mediaID: Int64, isHidden: Bool = false) {
        self.mediaID = mediaID
        self.isHidden = isHidden
    }
}

/// What repeats when an item ends.
public enum RepeatMode: String, Sendable, Codable, CaseIterable {
    case disabled, one, all
}

/// How an item stopped playing, for the listening history.
public enum ListeningOutcome: String, Sendable, Codable {
    /// Played to its end.
    case ended
    /// The listener skipped it or chose another item.
    case skipped
    /// Paused (also when the app went to the background).
    case paused
}

/// An entry of the listening history that an action produced.
public struct ListeningEvent: Sendable, Equatable {
    public var mediaID: Int64
    public var outcome: ListeningOutcome
    /// Where in the item it stopped, in seconds.
    public var position: Double

    public init(mediaID: Int64, outcome: ListeningOutcome, position: Double) {
        self.mediaID = mediaID
        self.outcome = outcome
        self.position = position
    }
}

/// The seed's `POST /player` actions, with their payloads.
public enum PlayerAction: Sendable, Equatable {
    case initialize
    /// Replaces the queue with `items` and starts at the item `startAt` (or the first). With
    /// `shuffle` or `repeatMode` (seed 001's Listing 9 sends both with `play`), the player takes
    /// that mode first; without, it keeps its own.
    case play(
        items: [QueueItem], startAt: Int64?, contextID: String?, shuffle: Bool? = nil, repeatMode: RepeatMode? = nil)
    case playbackStarted
    case enqueueNext([QueueItem])
    case playbackResume
    case playbackPause(position: Double)
    case backgroundPause(position: Double)
    /// The current item ended by itself.
    case trackNext
    /// The listener skipped the current item.
    case trackSkip(position: Double)
    /// The listener went back: to the start of the current item when more than
    /// ``PlayerState/restartThreshold`` seconds in, otherwise to the previous item.
    case trackPrev(position: Double)
    case shuffleEnable
    case shuffleDisable
    case repeatOneEnable
    case repeatAllEnable
    case repeatDisable
    /// Removes the items at these places of the play order.
    case trackDelete(places: [Int])
    /// Moves the item at place `from` of the play order to place `to`.
    case trackReorder(from: Int, to: Int)
    /// Plays the item at this place of the play order.
    case trackChange(place: Int)
    case clearQueue
    case queueEnded
    /// Takes the queue another player saved (Subsonic's savePlayQueue): these items in this
    /// order, at the item `current` and `position` seconds into it, paused. Nothing is heard.
    case restore(items: [QueueItem], current: Int64?, position: Double)
}

/// Why an action cannot apply to the state it was sent for.
public struct PlayerError: PhrasedError, Sendable, Equatable {
    public var field: String
    /// The words, and what they were made from (a translation looks them up).
    public var phrase: Phrase

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`, as for a ``FieldProblem``.
    public init(field: String, detail message: String, _ values: [String: String] = [:]) {
        self.field = field
        self.phrase = Phrase(message, values)
    }

    /// The same problem as the rest of Campus names one.
    public var fieldProblem: FieldProblem { FieldProblem(field: field, phrase) }
}

/// A listener's player: the queue in play order, the current item, the position, shuffle and
/// repeat. It is the same from every device of the listener, since the server keeps it.
public struct PlayerState: Sendable, Equatable, Codable {
    /// The queue in the order it plays (shuffled when shuffle is on).
    public private(set) var queue: [QueueItem]
    /// The queue in the order it was made, to return to when shuffle is turned off.
    public private(set) var original: [QueueItem]
    /// The place of the current item in ``queue``.
    public private(set) var current: Int?
    public private(set) var position: Double
    public private(set) var isPlaying: Bool
    public private(set) var shuffle: Bool
    public private(set) var repeatMode: RepeatMode
    public private(set) var contextID: String?

    /// Going back within this many seconds of the start goes to the previous item.
    public static let restartThreshold = 3.0
    /// The longest queue kept.
    public static let capacity = 5000

    public init() {
        queue = []
        original = []
        current = nil
        position = 0
        isPlaying = false
        shuffle = false
        repeatMode = .disabled
        contextID = nil
    }

    public var currentItem: QueueItem? { current.map { queue[$0] } }

    /// Applies one action; returns the listening-history events it caused.
    @discardableResult
    public mutating func apply<R: RandomNumberGenerator>(_ action: PlayerAction, random: inout R) throws(PlayerError)
        -> [ListeningEvent]
    {
        switch action {
        case .initialize:
            return []
        case .play(let items, let startAt, let contextID, let shuffleChoice, let repeatChoice):
            guard !items.isEmpty else { throw PlayerError(field: "ids", detail: "Nothing to play.") }
            guard items.count <= Self.capacity else {
                throw PlayerError(
                    field: "ids", detail: "A queue holds at most {maximum} items.", ["maximum": String(Self.capacity)])
            }
            var events: [ListeningEvent] = []
            if let item = currentItem, isPlaying {
                events.append(.init(mediaID: item.mediaID, outcome: .skipped, position: position))
            }
            original = items
            queue = items
            self.contextID = contextID
            var start = 0
            if let startAt {
                guard let index = items.firstIndex(where: { $0.mediaID == startAt }) else {
                    throw PlayerError(
                        field: "id", detail: "Item {id} is not in the context {context}.",
                        ["id": String(startAt), "context": contextID ?? ""])
                }
                start = index
            }
            if let shuffleChoice { shuffle = shuffleChoice }
            if let repeatChoice { repeatMode = repeatChoice }
            if shuffle { shuffleKeeping(start, random: &random) } else { current = start }
            if let current, queue[current].isHidden { self.current = nextPlayable(after: current, wrapping: true) }
            position = 0
            isPlaying = self.current != nil
            return events
        case .restore(let items, let currentID, let at):
            guard items.count <= Self.capacity else {
                throw PlayerError(
                    field: "ids", detail: "A queue holds at most {maximum} items.", ["maximum": String(Self.capacity)])
            }
            original = items
            queue = items
            shuffle = false
            contextID = nil
            current = items.isEmpty ? nil : (currentID.flatMap { id in items.firstIndex { $0.mediaID == id } } ?? 0)
            position = current == nil ? 0 : max(0, at)
            isPlaying = false
            return []
        case .playbackStarted:
            guard current != nil else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            isPlaying = true
            position = 0
            return []
        case .enqueueNext(let items):
            guard queue.count + items.count <= Self.capacity else {
                throw PlayerError(
                    field: "ids", detail: "A queue holds at most {maximum} items.", ["maximum": String(Self.capacity)])
            }
            let at = current.map { $0 + 1 } ?? queue.count
            queue.insert(contentsOf: items, at: at)
            let originalAt =
                currentItem.flatMap { item in original.firstIndex(of: item) }.map { $0 + 1 } ?? original.count
            original.insert(contentsOf: items, at: originalAt)
            if current == nil, let first = nextPlayable(after: at - 1, wrapping: false) { current = first }
            return []
        case .playbackResume:
            guard current != nil else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            isPlaying = true
            return []
        case .playbackPause(let at), .backgroundPause(let at):
            guard let item = currentItem else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            position = max(0, at)
            let wasPlaying = isPlaying
            isPlaying = false
            return wasPlaying ? [.init(mediaID: item.mediaID, outcome: .paused, position: position)] : []
        case .trackNext:
            guard let index = current else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            let event = ListeningEvent(mediaID: queue[index].mediaID, outcome: .ended, position: position)
            position = 0
            if repeatMode == .one { return [event] }
            advance(from: index)
            return [event]
        case .trackSkip(let at):
            guard let index = current else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            let event = ListeningEvent(mediaID: queue[index].mediaID, outcome: .skipped, position: max(0, at))
            position = 0
            advance(from: index)
            return [event]
        case .trackPrev(let at):
            guard let index = current else { throw PlayerError(field: "action", detail: "The queue is empty.") }
            position = 0
            if at > Self.restartThreshold { return [] }
            if let previous = previousPlayable(before: index, wrapping: repeatMode == .all) { current = previous }
            return []
        case .shuffleEnable:
            shuffle = true
            if let current { shuffleKeeping(current, random: &random) } else { queue.shuffle(using: &random) }
            return []
        case .shuffleDisable:
            guard shuffle else { return [] }
            shuffle = false
            let item = currentItem
            queue = original
            if let item { current = queue.firstIndex(of: item) }
            return []
        case .repeatOneEnable:
            repeatMode = .one
            return []
        case .repeatAllEnable:
            repeatMode = .all
            return []
        case .repeatDisable:
            repeatMode = .disabled
            return []
        case .trackDelete(let places):
            let places = Set(places)
            guard places.allSatisfy({ queue.indices.contains($0) }) else {
                throw PlayerError(
                    field: "places", detail: "Every place is within the queue (0 to {last}).",
                    ["last": String(queue.count - 1)])
            }
            let removed = places.map { queue[$0] }
            var removedCurrent = false
            if let index = current, places.contains(index) {
                removedCurrent = true
                // The next item that stays becomes current.
                current = (index + 1..<queue.count).first { !places.contains($0) && !queue[$0].isHidden }
            }
            let before = current.map { index in places.filter { $0 < index }.count } ?? 0
            queue = queue.enumerated().filter { !places.contains($0.offset) }.map(\.element)
            for item in removed {
                if let index = original.firstIndex(of: item) { original.remove(at: index) }
            }
            if let index = current { current = index - before }
            if removedCurrent {
                position = 0
                if current == nil { isPlaying = false }
            }
            return []
        case .trackReorder(let from, let to):
            guard queue.indices.contains(from), queue.indices.contains(to) else {
                throw PlayerError(
                    field: "from", detail: "Both places are within the queue (0 to {last}).",
                    ["last": String(queue.count - 1)])
            }
            let item = queue.remove(at: from)
            queue.insert(item, at: to)
            if let index = current {
                if index == from {
                    current = to
                } else if from < index, to >= index {
                    current = index - 1
                } else if from > index, to <= index {
                    current = index + 1
                }
            }
            if !shuffle { original = queue }
            return []
        case .trackChange(let place):
            guard queue.indices.contains(place) else {
                throw PlayerError(
                    field: "place", detail: "The place is within the queue (0 to {last}).",
                    ["last": String(queue.count - 1)])
            }
            guard !queue[place].isHidden else { throw PlayerError(field: "place", detail: "That item is hidden.") }
            var events: [ListeningEvent] = []
            if let item = currentItem, place != current {
                events.append(.init(mediaID: item.mediaID, outcome: .skipped, position: position))
            }
            current = place
            position = 0
            isPlaying = true
            return events
        case .clearQueue:
            queue = []
            original = []
            current = nil
            position = 0
            isPlaying = false
            contextID = nil
            return []
        case .queueEnded:
            isPlaying = false
            position = 0
            return []
        }
    }

    /// Marks exactly these items hidden (the listener hid them, or they are explicit and the
    /// listener skips explicit content). They stay in the queue and are skipped.
    public mutating func setHidden(_ hidden: Set<Int64>) {
        for index in queue.indices { queue[index].isHidden = hidden.contains(queue[index].mediaID) }
        for index in original.indices { original[index].isHidden = hidden.contains(original[index].mediaID) }
    }

    /// Moves to the next playable item, wrapping with repeat-all; stops at the end otherwise.
    private mutating func advance(from index: Int) {
        if let next = nextPlayable(after: index, wrapping: repeatMode == .all) {
            current = next
        } else {
            isPlaying = false
        }
    }

    private func nextPlayable(after index: Int, wrapping: Bool) -> Int? {
        guard !queue.isEmpty else { return nil }
        let count = queue.count
        let steps = wrapping ? count : max(0, count - 1 - index)
        for step in stride(from: 1, through: steps, by: 1) {
            let place = (index + step) % count
            if !queue[place].isHidden { return place }
        }
        return nil
    }

    private func previousPlayable(before index: Int, wrapping: Bool) -> Int? {
        guard !queue.isEmpty else { return nil }
        let count = queue.count
        let steps = wrapping ? count : index
        for step in stride(from: 1, through: steps, by: 1) {
            let place = ((index - step) % count + count) % count
            if !queue[place].isHidden { return place }
        }
        return nil
    }

    /// Shuffles the queue with the item at `index` first.
    private mutating func shuffleKeeping<R: RandomNumberGenerator>(_ index: Int, random: inout R) {
        let first = queue[index]
        var rest = queue
        rest.remove(at: index)
        rest.shuffle(using: &random)
        queue = [first] + rest
        current = 0
    }
}
