import Foundation

/// HTTP dates (`Last-Modified`, `If-Modified-Since`) in the one form RFC 9110 §5.6.7 says to
/// send, IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`. Read and written here rather than with
/// Foundation's DateFormatter, which traps on some non-ASCII text (found by Fuzz/FuzzDates) and
/// would let one request header stop the server.
public enum HTTPDate {
    static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    /// `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func text(_ date: Date) -> String {
        let parts = calendar.dateComponents([.weekday, .year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ value: Int?) -> String {
            let value = value ?? 0
            return value < 10 ? "0\(value)" : "\(value)"
        }
        let weekday = weekdays[((parts.weekday ?? 1) - 1 + 7) % 7]
        let month = months[((parts.month ?? 1) - 1 + 12) % 12]
        return "\(weekday), \(two(parts.day)) \(month) \(parts.year ?? 1970) \(two(parts.hour)):\(two(parts.minute)):"
            + "\(two(parts.second)) GMT"
    }

    /// The moment an IMF-fixdate names; nil for anything else.
    public static func date(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 29, bytes.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let text = String(decoding: bytes, as: UTF8.self)
        func part(_ from: Int, _ length: Int) -> Substring {
            let start = text.index(text.startIndex, offsetBy: from)
            return text[start..<text.index(start, offsetBy: length)]
        }
        func number(_ from: Int, _ length: Int) -> Int? {
            let digits = part(from, length)
            guard digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(digits)
        }
        guard weekdays.contains(String(part(0, 3))), part(3, 2) == ", ", part(7, 1) == " ", part(11, 1) == " ",
            part(16, 1) == " ", part(19, 1) == ":", part(22, 1) == ":", part(25, 4) == " GMT",
            let day = number(5, 2), let monthIndex = months.firstIndex(of: String(part(8, 3))),
            let year = number(12, 4), let hour = number(17, 2), let minute = number(20, 2),
            let second = number(23, 2), (1...31).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        let components = DateComponents(
            year: year, month: monthIndex + 1, day: day, hour: hour, minute: minute, second: min(second, 59))
        guard let date = calendar.date(from: components), calendar.component(.day, from: date) == day else {
            return nil
        }
        return date
    }
}
