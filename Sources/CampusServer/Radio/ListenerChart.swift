import Formats
import Foundation
import Listen
import Localization
import Timetable

/// A station's listeners per day as an SVG bar chart (issue 42), drawn on the server for the
/// station's page: a bar of unique listeners per day, a dot for the most at once, each with its
/// figures as a tooltip; drawn for a phone's width, as ``ResultsChart`` is.
struct ListenerChart: Sendable {
    let t: Translator
    let timeZone: TimeZone

    let width = 360.0
    let height = 180.0
    let margin = (left: 36.0, right: 8.0, top: 10.0, bottom: 24.0)

    func svg(_ days: [(day: Date, figures: ListenerStatistics.Figures)]) -> String {
        guard !days.isEmpty else { return "" }
        let high = Double(max(1, days.map { max($0.figures.uniqueListeners, $0.figures.peakListeners) }.max() ?? 1))
        let plotWidth = width - margin.left - margin.right
        let plotHeight = height - margin.top - margin.bottom
        let slot = plotWidth / Double(days.count)
        func y(_ value: Double) -> Double { margin.top + plotHeight * (1 - value / high) }
        func f(_ value: Double) -> String { String(format: "%.1f", value) }
        let label = t("Listeners per day")
        var svg = """
            <svg class="chart listener-chart" role="img" viewBox="0 0 \(Int(width)) \(Int(height))" width="100%" \
            xmlns="http://www.w3.org/2000/svg" aria-label="\(Self.escape(label))">
            """
        // Whole numbers on the axis: the top, the middle when it is one, and zero.
        let marks = Set([0, high / 2, high].map { $0.rounded() }).sorted()
        for value in marks {
            svg += "<line class=\"grid\" x1=\"\(f(margin.left))\" x2=\"\(f(width - margin.right))\" "
            svg += "y1=\"\(f(y(value)))\" y2=\"\(f(y(value)))\"/>"
            svg += "<text class=\"axis\" x=\"\(f(margin.left - 4))\" y=\"\(f(y(value) + 4))\" text-anchor=\"end\">"
            svg += "\(Int(value.rounded()))</text>"
        }
        for (index, entry) in days.enumerated() {
            let date = LocalDate(entry.day, in: timeZone)
            let x = margin.left + slot * Double(index)
            let figures = entry.figures
            let tip = t(
                "{date}: {unique} listeners, {peak} at most at once, {hours} hours",
                [
                    "date": t.date(year: date.year, month: date.month, day: date.day, withYear: false),
                    "unique": String(figures.uniqueListeners), "peak": String(figures.peakListeners),
                    "hours": String(format: "%.1f", figures.hours),
                ])
            let top = y(Double(figures.uniqueListeners))
            svg += "<rect class=\"bar\" x=\"\(f(x + slot * 0.15))\" y=\"\(f(top))\" width=\"\(f(slot * 0.7))\" "
            svg += "height=\"\(f(margin.top + plotHeight - top))\"><title>\(Self.escape(tip))</title></rect>"
            svg +=
                "<circle class=\"dot\" cx=\"\(f(x + slot / 2))\" cy=\"\(f(y(Double(figures.peakListeners))))\" r=\"3\"/>"
            if days.count <= 16 || index % 2 == 0 {
                svg += "<text class=\"axis\" x=\"\(f(x + slot / 2))\" y=\"\(f(height - 8))\" text-anchor=\"middle\">"
                svg += "\(date.day)</text>"
            }
        }
        return svg + "</svg>"
    }

    static func escape(_ text: String) -> String { XMLWriter.escaped(text, inAttribute: true) }
}
