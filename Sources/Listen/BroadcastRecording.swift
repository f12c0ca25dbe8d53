import Foundation

/// What a recorded broadcast is called as an episode of its station's programme: the day and
/// time it began in the station's time zone, then the titles the source said while it played,
/// in order and each once ("2026-11-23 14:00 · Morning show; News"). The date is written the
/// ISO way, which reads the same in every language: the title is data, kept as it was made.
public enum BroadcastRecording {
    /// The most titles a recording's name lists; later ones are left out.
    public static let titlesNamed = 5

    public static func title(startedAt: Date, timeZone: TimeZone, titles: [String]) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: startedAt)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        let when =
            "\(String(format: "%04d", parts.year ?? 0))-\(two(parts.month))-\(two(parts.day)) \(two(parts.hour)):\(two(parts.minute))"
        var named: [String] = []
        for title in titles {
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty, !named.contains(trimmed) { named.append(trimmed) }
        }
        let list = named.prefix(titlesNamed).joined(separator: "; ") + (named.count > titlesNamed ? "; …" : "")
        let whole = list.isEmpty ? when : "\(when) · \(list)"
        return String(whole.prefix(CatalogueLimits.title))
    }

    /// The file extension a broadcast of this content type is kept with, so that ffprobe and
    /// players know it; nil for a type Campus does not record.
    public static func fileExtension(contentType: String) -> String? {
        let type = contentType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        switch type {
        case "audio/mpeg", "audio/mp3": return "mp3"
        case "audio/ogg", "application/ogg", "audio/opus", "audio/vorbis": return "ogg"
        case "audio/aac", "audio/aacp", "audio/x-aac": return "aac"
        default: return nil
        }
    }
}
