import Accounts
import CSV
import CampusAPI
import Compete
import Foundation
import InputRules
import OpenAPIRuntime
import ServiceLifecycle
import Storage

/// A competition's results (or one category's) as an RFC 4180 CSV file, in ranking order: the
/// ranks are among the entries given.
enum ResultsCSV {
    static let header = [
        "rank", "name", "email", "result", "unit", "result_text", "joined_at", "result_at", "track_km",
        "track_elapsed_s", "track_moving_s", "category", "team", "laps", "best_lap",
    ]

    static func make(competition: Competition, entries: [(entry: Entry, email: String)]) throws -> [UInt8] {
        let emails = Dictionary(entries.map { ($0.entry.participantID, $0.email) }) { a, _ in a }
        let ranked = Ranking.rank(entries.map(\.entry), by: competition.ranksBy)
        let stream = OutputStream(toMemory: ())
        let writer = try CSVWriter(stream: stream, newline: .crlf)
        try writer.write(row: header)
        let time = Date.ISO8601FormatStyle()
        for item in ranked {
            let entry = item.entry
            let track = entry.track
            var row: [String] = [item.rank.map(String.init) ?? "", text(entry.participantName)]
            row.append(text(emails[entry.participantID] ?? ""))
            row.append(entry.result.map { ResultText.decimal($0, places: 6) } ?? "")
            row.append(text(competition.unit))
            row.append(
                text(
                    entry.result.map { ResultText.format($0, metric: competition.metric, unit: competition.unit) }
                        ?? ""))
            row.append(entry.joinedAt.formatted(time))
            row.append(entry.resultAt?.formatted(time) ?? "")
            row.append(track.map { ResultText.decimal($0.distanceMetres / 1000, places: 3) } ?? "")
            row.append(track?.elapsedSeconds.map { ResultText.decimal($0, places: 0) } ?? "")
            row.append(track?.movingSeconds.map { ResultText.decimal($0, places: 0) } ?? "")
            row.append(text(entry.category ?? ""))
            row.append(text(entry.team ?? ""))
            row.append(entry.laps.map { ResultText.decimal($0, places: 6) }.joined(separator: ";"))
            row.append(
                LapRules.best(entry.laps, metric: competition.metric).map { ResultText.decimal($0, places: 6) } ?? "")
            try writer.write(row: row)
        }
        writer.stream.close()
        guard let data = stream.property(forKey: .dataWrittenToMemoryStreamKey) as? Data else { return [] }
        return Array(data)
    }

    /// A cell of text people wrote, safe to open in a spreadsheet: one that starts like a formula
    /// (`=`, `+`, `-`, `@`, a tab or a carriage return, or their full-width forms) gets a leading
    /// apostrophe, so that Excel, LibreOffice and Google Sheets show it instead of running it
    /// (OWASP's advice on CSV injection).
    static func text(_ value: String) -> String {
        guard let first = value.unicodeScalars.first, formulaStarts.contains(first) else { return value }
        return "'" + value
    }

    private static let formulaStarts: Set<Unicode.Scalar> = [
        "=", "+", "-", "@", "\t", "\r", "\u{FF1D}", "\u{FF0B}", "\u{FF0D}", "\u{FF20}",
    ]
}
