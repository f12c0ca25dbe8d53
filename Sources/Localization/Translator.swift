/// Text in one language: messages by their English source text, plural forms by the language's
/// rule, and numbers and dates the way the language writes them. Placeholders are written
/// `{name}` in the source text and the translation, and filled from `values`.
///
/// Month and weekday names, the date pattern and the separators are messages of the catalogue
/// too (contexts `month`, `month in a date`, `weekday`, `weekday, short`, `format`), not
/// Foundation's locale data: a translator sees and fixes them like any other text, and the
/// server does not load ICU's locale tables (issue 12 keeps the memory figures of
/// docs/BENCHMARKS.md).
public struct Translator: Sendable {
    public let catalogue: Catalogue

    public init(_ catalogue: Catalogue) { self.catalogue = catalogue }

    /// English: the source text.
    public static let source = Translator(.source)

    /// The language's code, for `lang` attributes and `Content-Language`.
    public var code: String { catalogue.code }

    /// A message in this language: `t("Sign in")`, `t("Signed in as {name}.", ["name": name])`.
    public func callAsFunction(_ text: String, context: String? = nil, _ values: [String: String] = [:]) -> String {
        Placeholders.fill(catalogue.translation(Catalogue.Key(text, context: context)) ?? text, values)
    }

    /// The translation of a message if the catalogue has one, else nil (for text that may or
    /// may not be a message, such as a problem's detail).
    public func translation(of text: String, context: String? = nil) -> String? {
        catalogue.translation(Catalogue.Key(text, context: context))
    }

    /// A message with plural forms: `t.plural("{count} participant", "{count} participants", 5)`
    /// is "5 участников" in Russian. `{count}` is the number as the language writes it.
    public func plural(
        _ one: String, _ other: String, _ count: Int, context: String? = nil, _ values: [String: String] = [:]
    ) -> String {
        let key = Catalogue.Key(one, context: context)
        let text = catalogue.translation(key, count: count) ?? (Catalogue.source.rule.form(count) == 0 ? one : other)
        var values = values
        values["count"] = number(count)
        return Placeholders.fill(text, values)
    }

    // MARK: Numbers

    /// A whole number with the language's thousands separator (`12 345`, `12,345`).
    public func number(_ value: Int) -> String {
        let digits = String(value.magnitude)
        guard digits.count > 4 else { return value < 0 ? "-" + digits : digits }
        let separator = self(",", context: "thousands separator")
        var groups: [Substring] = []
        var end = digits.endIndex
        while end > digits.startIndex {
            let start = digits.index(end, offsetBy: -3, limitedBy: digits.startIndex) ?? digits.startIndex
            groups.insert(digits[start..<end], at: 0)
            end = start
        }
        return (value < 0 ? "-" : "") + groups.joined(separator: separator)
    }

    /// A number with `fractionDigits` digits after the language's decimal separator (`2,73`).
    public func number(_ value: Double, fractionDigits: Int) -> String {
        guard value.isFinite else { return "–" }
        let digits = max(0, min(fractionDigits, 6))
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (value.magnitude * scale).rounded()
        guard scaled < 1e15 else { return String(value) }
        let whole = Int(scaled / scale)
        let sign = value < 0 && scaled > 0 ? "-" : ""
        guard digits > 0 else { return sign + number(whole) }
        let fraction = String(Int(scaled) - whole * Int(scale))
        let padded = String(repeating: "0", count: digits - fraction.count) + fraction
        return sign + number(whole) + self(".", context: "decimal separator") + padded
    }

    // MARK: Dates

    /// English month names, the keys of the `month` and `month in a date` messages.
    public static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    /// English weekday names from Monday, the keys of the `weekday` messages.
    public static let weekdays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
    /// Short weekday names from Monday, the keys of the `weekday, short` messages.
    public static let shortWeekdays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]

    /// A month's name standing alone (`ноябрь`), month 1 to 12.
    public func month(_ month: Int) -> String {
        guard (1...12).contains(month) else { return String(month) }
        return self(Self.months[month - 1], context: "month")
    }

    /// A weekday's name, 1 (Monday) to 7 (Sunday).
    public func weekday(_ weekday: Int, short: Bool = false) -> String {
        guard (1...7).contains(weekday) else { return String(weekday) }
        return short
            ? self(Self.shortWeekdays[weekday - 1], context: "weekday, short")
            : self(Self.weekdays[weekday - 1], context: "weekday")
    }

    /// A day of a month, with or without its year: `November 22, 2026`, `22 ноября 2026 г.`.
    public func date(year: Int, month: Int, day: Int, withYear: Bool = true) -> String {
        guard (1...12).contains(month) else { return "\(year)-\(month)-\(day)" }
        let name = self(Self.months[month - 1], context: "month in a date")
        let values = ["day": String(day), "month": name, "year": String(year)]
        return withYear
            ? self("{month} {day}, {year}", context: "format", values)
            : self("{month} {day}", context: "format", values)
    }

    /// Every message the translator itself uses (month and weekday names, formats, separators),
    /// for the catalogue's completeness test and the string extractor.
    public static var ownMessages: [Catalogue.Key] {
        months.map { Catalogue.Key($0, context: "month") }
            + months.map { Catalogue.Key($0, context: "month in a date") }
            + weekdays.map { Catalogue.Key($0, context: "weekday") }
            + shortWeekdays.map { Catalogue.Key($0, context: "weekday, short") } + [
                Catalogue.Key("{month} {day}, {year}", context: "format"),
                Catalogue.Key("{month} {day}", context: "format"),
                Catalogue.Key(".", context: "decimal separator"),
                Catalogue.Key(",", context: "thousands separator"),
            ]
    }
}
