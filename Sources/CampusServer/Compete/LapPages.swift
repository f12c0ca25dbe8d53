import Accounts
import CampusHTTP
import Compete
import Foundation
import InputRules
import Storage

/// Laps on the competition page (issue 41): the organizer enters a participant's laps or
/// splits in one field ("5:12 4:58 5:05"), the scoreboard shows each best lap, and the lap
/// records follow it.
struct LapPages: Sendable {
    let compete: CompeteService

    func register(on pages: PageRouter) {
        pages.form(SiteRoutes.participantLaps, LapsForm.self) { request, account, form in
            let participant = try request.id("userId")
            return try await CompetitionActionAnswer.shown(request) { id in
                let competition = try await compete.managed(id, by: account.user).competition
                let values = try Self.values(form.laps ?? "", metric: competition.metric)
                let splits = form.splits != nil
                _ = try await compete.setLaps(
                    id, participant: participant, laps: splits ? nil : values, splits: splits ? values : nil,
                    by: account.user)
                return request.t("Laps saved.")
            }
        }
    }

    struct LapsForm: PageForm {
        var _csrf: String?
        var laps: String?
        /// Present when the numbers are splits (running totals).
        var splits: String?
    }

    /// The numbers of the field: separated by spaces or semicolons, each as a result is written
    /// (h:mm:ss, m:ss or seconds; km with a decimal point or comma).
    static func values(_ text: String, metric: Metric) throws -> [Double] {
        let parts = text.split { $0.isWhitespace || $0 == ";" }.prefix(LapRules.lapLimit + 1)
        return try parts.map { part in
            guard let value = ResultText.parse(String(part), metric: metric) else {
                throw Refusal.invalid(
                    FieldProblem(
                        field: "laps", detail: "“{text}” is not a lap: write h:mm:ss, m:ss, seconds or km.",
                        ["text": String(part)]))
            }
            return value
        }
    }

    /// The laps as the organizer's field shows them again.
    static func text(_ laps: [Double], metric: Metric, _ text: CompeteText) -> String {
        laps.map { metric == .time ? ResultText.clock($0) : text.decimal($0, places: 3) }.joined(separator: " ")
    }

    /// The lap records under the scoreboard, nil while nobody has laps.
    static func records(
        _ records: (best: LapRecord?, laps: [LapRecord]), of competition: Competition, _ text: CompeteText
    )
        -> CompetitionPage.LapRecords?
    {
        guard let best = records.best else { return nil }
        func row(_ record: LapRecord) -> CompetitionPage.LapRecords.Row {
            .init(
                lap: record.lap.map { text.t("Lap {number}", ["number": String($0)]) }
                    ?? (competition.metric == .time ? text.t("Fastest lap") : text.t("Longest lap")),
                value: text.result(record.value, metric: competition.metric, unit: competition.unit),
                holders: record.holders.map(\.participantName).joined(separator: ", "))
        }
        return .init(rows: [row(best)] + records.laps.map(row))
    }

    /// "Best lap: 4:58" under a result.
    static func bestLap(_ entry: Entry, of competition: Competition, _ text: CompeteText) -> String? {
        LapRules.best(entry.laps, metric: competition.metric).map {
            text.t("Best lap: {lap}", ["lap": text.result($0, metric: competition.metric, unit: competition.unit)])
        }
    }
}
