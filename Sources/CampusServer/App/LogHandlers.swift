import Foundation
import Logging

/// Writes each log event as one line on standard error: text (time, level, label, metadata,
/// message, like swift-log's StreamLogHandler) for people, or one JSON object for log
/// collectors. Metadata is formatted only when an event is written: the server sets a request id
/// on every request's logger, which StreamLogHandler would format each time.
public struct CampusLogHandler: LogHandler {
    public enum Format: Sendable { case text, json }

    public var metadata: Logger.Metadata = [:]
    public var logLevel: Logger.Level = .info
    let label: String
    let format: Format

    public init(label: String, format: Format) {
        self.label = label
        self.format = format
    }

    // Foundation's ISO 8601 style, which (unlike ISO8601DateFormatter) needs no ICU: formatting
    // with ICU would load megabytes of its code and data into every process.
    static let time = Date.ISO8601FormatStyle()
    static let preciseTime = Date.ISO8601FormatStyle(includingFractionalSeconds: true)

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { $1 }
        switch format {
        case .text:
            var line = Date().formatted(Self.time)
            line += " \(event.level) \(label):"
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) { line += " \(key)=\(value)" }
            line += " [\(event.source)] \(event.message)\n"
            FileHandle.standardError.write(Data(line.utf8))
        case .json:
            var object: [String: Any] = [
                "ts": Date().formatted(Self.preciseTime),
                "level": event.level.rawValue,
                "logger": label,
                "msg": event.message.description,
            ]
            for (key, value) in merged { object[key] = Self.plain(value) }
            guard
                var line = try? JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
            else { return }
            line.append(0x0A)
            FileHandle.standardError.write(line)
        }
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
