import Foundation

/// One of a station's AutoDJ playlists (issue 42): what it holds (tracks, albums, a podcast's or
/// programme's episodes, genres) and when it plays (``AutoDJ``).
public struct RotationPlaylist: Sendable, Equatable {
    /// When the playlist's tracks come on.
    public enum Rule: Sendable, Equatable {
        /// In the general rotation, chosen as often as its weight says beside the others.
        case rotation(weight: Int)
        /// One track after every `songs` songs of the other playlists (jingles, station IDs).
        case every(songs: Int)
        /// Instead of the rotation while its block runs (by weight among the blocks running).
        case block(TimeBlock, weight: Int)

        public var weight: Int {
            switch self {
            case .rotation(let weight), .block(_, let weight): weight
            case .every: 0
            }
        }

        /// Its name in the API and the database.
        public var kind: String {
            switch self {
            case .rotation: "rotation"
            case .every: "every"
            case .block: "block"
            }
        }
    }

    /// What the playlist takes its tracks from (only items with a file here play).
    public enum Source: Sendable, Equatable, Hashable {
        /// One item of the catalogue.
        case media(Int64)
        /// Every item of an album, podcast, audiobook or programme.
        case parent(Int64)
        /// Every item of a genre.
        case genre(Int64)

        public var kind: String {
            switch self {
            case .media: "media"
            case .parent: "parent"
            case .genre: "genre"
            }
        }

        public var id: Int64 {
            switch self {
            case .media(let id), .parent(let id), .genre(let id): id
            }
        }

        public init?(kind: String, id: Int64) {
            switch kind {
            case "media": self = .media(id)
            case "parent": self = .parent(id)
            case "genre": self = .genre(id)
            default: return nil
            }
        }
    }

    public var id: Int64
    public var stationID: Int64
    public var name: String
    public var rule: Rule
    public var sources: [Source]
    /// A disabled playlist stays as it was but does not play.
    public var enabled: Bool

    public init(id: Int64, stationID: Int64, name: String, rule: Rule, sources: [Source], enabled: Bool = true) {
        self.id = id
        self.stationID = stationID
        self.name = name
        self.rule = rule
        self.sources = sources
        self.enabled = enabled
    }

    public static let nameLength = 100
    public static let weights = 1...100
    public static let songsBetween = 1...100
    /// Sources of one playlist.
    public static let sourceLimit = 500
    /// Playlists of one station.
    public static let stationLimit = 50
}

/// Days of the week and a time of day, in the institution's zone: when a block playlist plays.
/// A block whose end is not after its start runs over midnight into the next day, and belongs to
/// the day it starts on.
public struct TimeBlock: Sendable, Equatable {
    /// ISO days: 1 Monday … 7 Sunday.
    public var weekdays: Set<Int>
    /// Minutes after midnight, 0 ..< 1440.
    public var from: Int
    /// Minutes after midnight, 0 ..< 1440; the block ends before it.
    public var to: Int

    public init(weekdays: Set<Int>, from: Int, to: Int) {
        self.weekdays = weekdays
        self.from = from
        self.to = to
    }

    public static let minutes = 0..<1440
    public static let days = 1...7

    /// Whether the block runs at `date` (its day and time of day in the calendar's zone).
    public func contains(_ date: Date, calendar: Calendar) -> Bool {
        let parts = calendar.dateComponents([.weekday, .hour, .minute], from: date)
        guard let weekday = parts.weekday, let hour = parts.hour, let minute = parts.minute else { return false }
        let day = (weekday + 5) % 7 + 1  // Foundation's 1 is Sunday; ISO's is Monday.
        let now = hour * 60 + minute
        if from < to { return weekdays.contains(day) && now >= from && now < to }
        let yesterday = (day + 5) % 7 + 1
        return (weekdays.contains(day) && now >= from) || (weekdays.contains(yesterday) && now < to)
    }

    /// Minutes after midnight as `HH:MM`.
    public static func clock(_ minutes: Int) -> String {
        let hours = minutes / 60
        let rest = minutes % 60
        return (hours < 10 ? "0" : "") + String(hours) + ":" + (rest < 10 ? "0" : "") + String(rest)
    }

    /// `HH:MM` (or `H:MM`) as minutes after midnight; nil for anything else.
    public static func minutes(clock: String) -> Int? {
        let parts = clock.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, (1...2).contains(parts[0].count),
            parts.allSatisfy({ $0.allSatisfy(\.isASCII) }), let hours = Int(parts[0]), let minutes = Int(parts[1]),
            (0..<24).contains(hours), (0..<60).contains(minutes)
        else { return nil }
        return hours * 60 + minutes
    }

    /// The days as a bit set (Monday the lowest bit), as the database keeps them.
    public var mask: Int { weekdays.reduce(0) { $0 | 1 << ($1 - 1) } }

    public init(mask: Int, from: Int, to: Int) {
        self.init(weekdays: Set(Self.days.filter { mask & 1 << ($0 - 1) != 0 }), from: from, to: to)
    }
}
