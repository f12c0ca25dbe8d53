import Foundation
import HTTPInput
import Hummingbird
import InputRules
import Logging
import Metrics
import Mustache
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OpenAPIRuntime
import Prometheus
import ServiceLifecycle
import Storage
import Timetable

/// Dates in JSON as RFC 3339 `date-time`: written in whole seconds in UTC, read with or without
/// fractional seconds and with any offset, as the format allows.
struct RFC3339DateTranscoder: DateTranscoder {
    struct Invalid: Error, CustomStringConvertible {
        var text: String
        var description: String {
            "“\(text)” is not an RFC 3339 date-time such as 2026-11-22T09:00:00Z, from \(DateRules.rangeText)."
        }
    }

    func encode(_ date: Date) throws -> String { RFC3339.text(date) }

    func decode(_ text: String) throws -> Date {
        guard let date = RFC3339.date(text) else { throw Invalid(text: String(text.prefix(64))) }
        return date
    }
}
