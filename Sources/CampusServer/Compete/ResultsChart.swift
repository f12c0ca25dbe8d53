import Compete
import Formats
import Foundation
import Timetable

/// The participant's results over time as SVG line charts, one per metric and unit, drawn on
/// the server so that the stats page needs no script; labels in the reader's language, dates in
/// the institution's time zone.
struct ResultsChart: Sendable {
    let text: CompeteText
    let timeZone: TimeZone

    /// Drawn for a phone's width (the page shows it at most 480 px wide): its 13-unit labels read
    /// at about body text size on a phone and on a desktop.
    let width = 360.0
    let height = 200.0
    let margin = (left: 60.0, right: 12.0, top: 12.0, bottom: 30.0)

    /// A chart: its title, the metric it shows and the `svg` markup (already escaped).
    struct Chart: Sendable {
        var title: String
        var metric: String
        var svg: String
    }

    /// One chart per metric and unit.
    func charts(_ results: [ResultRecord]) -> [Chart] {
        let groups = Dictionary(grouping: results) { "\($0.metric.rawValue) \($0.unit)" }
        return groups.sorted { $0.key < $1.key }.compactMap { _, results in
            let group = results.sorted { $0.at < $1.at }
            guard let first = group.first else { return nil }
            let title = text.t(
                "{metric} ({unit})", context: "chart",
                ["metric": text.metric(first.metric), "unit": text.unit(first.unit, metric: first.metric)])
            return Chart(title: title, metric: first.metric.rawValue, svg: svg(group, title: title))
        }
    }

    func svg(_ results: [ResultRecord], title: String) -> String {
        guard let first = results.first, let last = results.last, let lowest = results.map(\.value).min(),
            let highest = results.map(\.value).max()
        else { return "" }
        let metric = first.metric
        var low = min(0, lowest)
        var high = highest
        if high == low { high = low + 1 }
        high += (high - low) * 0.1
        if metric == .time { low = 0 }
        let start = first.at.timeIntervalSince1970
        var span = last.at.timeIntervalSince1970 - start
        if span <= 0 { span = 1 }
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        func x(_ result: ResultRecord, _ index: Int) -> Double {
            results.count == 1
                ? margin.left + plotWidth / 2
                : margin.left + plotWidth * (result.at.timeIntervalSince1970 - start) / span
        }
        func y(_ value: Double) -> Double { margin.top + plotHeight * (1 - (value - low) / (high - low)) }
        func label(_ value: Double) -> String {
            metric == .time ? ResultText.clock(value) : text.decimal(value, places: 2)
        }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }

        var svg = """
            <svg class="chart" role="img" viewBox="0 0 \(Int(width)) \(Int(height))" width="100%" \
            xmlns="http://www.w3.org/2000/svg" aria-label="\(Self.escape(text.t("{chart} over time", ["chart": title])))">
            """
        // Grid lines and their labels: four steps from low to high.
        for step in 0...4 {
            let value = low + (high - low) * Double(step) / 4
            let lineY = y(value)
            svg += "<line class=\"grid\" x1=\"\(f(margin.left))\" x2=\"\(f(width - margin.right))\" "
            svg += "y1=\"\(f(lineY))\" y2=\"\(f(lineY))\"/>"
            svg += "<text class=\"axis\" x=\"\(f(margin.left - 6))\" y=\"\(f(lineY + 4))\" text-anchor=\"end\">"
            svg += "\(Self.escape(label(value)))</text>"
        }
        func day(_ moment: Date) -> String {
            let date = LocalDateTime(moment, in: timeZone).date
            return text.t.date(year: date.year, month: date.month, day: date.day)
        }
        svg += "<text class=\"axis\" x=\"\(f(margin.left))\" y=\"\(f(height - 8))\">"
        svg += "\(Self.escape(day(first.at)))</text>"
        if results.count > 1 {
            svg += "<text class=\"axis\" x=\"\(f(width - margin.right))\" y=\"\(f(height - 8))\" text-anchor=\"end\">"
            svg += "\(Self.escape(day(last.at)))</text>"
        }
        let points = results.enumerated().map { "\(f(x($1, $0))),\(f(y($1.value)))" }.joined(separator: " ")
        if results.count > 1 { svg += "<polyline class=\"line\" points=\"\(points)\"/>" }
        for (index, result) in results.enumerated() {
            svg += "<circle class=\"dot\" cx=\"\(f(x(result, index)))\" cy=\"\(f(y(result.value)))\" r=\"4\">"
            let value = text.result(result.value, metric: metric, unit: result.unit)
            svg += "<title>\(Self.escape(result.competitionName)): \(Self.escape(value))</title></circle>"
        }
        return svg + "</svg>"
    }

    /// Text made safe inside SVG markup, as text or a double-quoted attribute: the rule of every
    /// XML Campus writes (``XMLWriter/escaped(_:inAttribute:)``).
    static func escape(_ text: String) -> String {
        XMLWriter.escaped(text, inAttribute: true)
    }
}
