import Foundation
import Listen

/// The AutoDJ part of a station's page, for admins (issue 42): its playlists, and a form to add
/// one.
struct StationAutoDJPanel: Sendable {
    struct Row: Sendable {
        var name: String
        /// When it plays, in words: its weight, its turn, or its days and hours.
        var rule: String
        var tracks: String
        var enabled: Bool
        var deleteURL: String
    }

    struct Option: Sendable {
        var value: String
        var label: String
        var selected: Bool
    }

    struct Day: Sendable {
        var value: String
        var name: String
        var checked: Bool
    }

    var rows: [Row]
    var empty: Bool
    var addURL: String
    /// The albums, podcasts, programmes and genres a playlist takes its tracks from.
    var sources: [Option]
    var kinds: [Option]
    var days: [Day]
    /// The add form as it was sent, when it comes back with `errors`.
    var form: StationPlaylistForm
    var errors = FieldErrors()
    var open = false
}

/// A new AutoDJ playlist, as the station page's form sends it.
struct StationPlaylistForm: PageForm {
    var _csrf: String?
    var name: String?
    /// `rotation`, `every` or `block`.
    var kind: String?
    var weight: String?
    var everySongs: String?
    /// ISO days, "1" Monday to "7" Sunday.
    var days: [String]?
    var from: String?
    var to: String?
    /// `parent:ID` or `genre:ID`.
    var source: String?

    /// The draft the station service checks; numbers that are not numbers fail its range checks.
    func draft() -> StationService.PlaylistDraft {
        func number(_ text: String?, _ otherwise: Int) -> Int {
            guard let text, !text.isEmpty else { return otherwise }
            return Int(text.trimmingCharacters(in: .whitespaces)) ?? -1
        }
        let rule: RotationPlaylist.Rule =
            switch kind {
            case "every": .every(songs: number(everySongs, 4))
            case "block":
                .block(
                    TimeBlock(
                        weekdays: Set((days ?? []).compactMap { Int($0) }),
                        from: TimeBlock.minutes(clock: from ?? "") ?? 0, to: TimeBlock.minutes(clock: to ?? "") ?? 0),
                    weight: number(weight, 5))
            default: .rotation(weight: number(weight, 5))
            }
        let parts = (source ?? "").split(separator: ":")
        let chosen =
            parts.count == 2 ? Int64(parts[1]).flatMap { RotationPlaylist.Source(kind: String(parts[0]), id: $0) } : nil
        return StationService.PlaylistDraft(name: name ?? "", rule: rule, sources: chosen.map { [$0] } ?? [])
    }
}

/// Requesting a track on a station's page (issue 42): its request list and what waits.
struct StationRequestsPanel: Sendable {
    var url: String
    var tracks: [StationAutoDJPanel.Option]
    var waiting: [String]
    var hasWaiting: Bool
    var error: String?
}

/// A listener's request, as the station page's form sends it.
struct StationRequestForm: PageForm {
    var _csrf: String?
    var media: String?
}
