import Foundation

/// Results as people write and read them: "12.35 km", "1:02:03", "17 points".
public enum ResultText {
    /// A result for reading, with its unit.
    public static func format(_ value: Double, metric: Metric, unit: String) -> String {
        switch metric {
        case .time: return clock(value)
        case .distance: return "\(decimal(value, places: 2)) \(unit)"
        case .points: return "\(decimal(value, places: 2)) \(unit)"
        }
    }

    /// Whole seconds as h:mm:ss, or m:ss under an hour.
    public static func clock(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let h = total / 3600
        let m = (total % 3600) / 60
        let s = total % 60
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }

    /// A number with at most `places` decimals and no trailing zeros ("12.5", "3").
    public static func decimal(_ value: Double, places: Int) -> String {
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = String(rounded)
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// Reads what a person typed: a number (a decimal comma is fine), or for times also
    /// "h:mm:ss" or "m:ss". Returns nil when it is neither.
    public static func parse(_ text: String, metric: Metric) -> Double? {
        let text = text.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: ",", with: ".")
        guard !text.isEmpty, text.count <= 32 else { return nil }
        if metric == .time, text.contains(":") {
            let parts = text.split(separator: ":", omittingEmptySubsequences: false)
            guard (2...3).contains(parts.count) else { return nil }
            var seconds = 0.0
            for (index, part) in parts.enumerated() {
                guard let number = Double(part), number >= 0, !part.contains("e"), !part.contains("E") else {
                    return nil
                }
                if index > 0, number >= 60 { return nil }
                seconds = seconds * 60 + number
            }
            return seconds
        }
        guard let number = Double(text), number.isFinite, text.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" })
        else { return nil }
        return number
    }
}
