import Foundation
import Logging

/// Writes each log event as one JSON object per line, for log collectors.
public struct JSONLogHandler: LogHandler {
    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String

    public init(label: String) { self.label = label }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var object: [String: Any] = [
            "ts": ISO8601DateFormatter.string(
                from: Date(), timeZone: .gmt, formatOptions: [.withInternetDateTime, .withFractionalSeconds]),
            "level": event.level.rawValue,
            "logger": label,
            "msg": event.message.description,
        ]
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        for (key, value) in merged { object[key] = Self.plain(value) }
        guard
            let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return }
        var line = data
        line.append(0x0A)
        FileHandle.standardError.write(line)
    }

    private static func plain(_ value: Logger.MetadataValue) -> Any {
        switch value {
        case .string(let text): text
        case .stringConvertible(let convertible): convertible.description
        case .array(let values): values.map(plain)
        case .dictionary(let values): values.mapValues(plain)
        }
    }
}
