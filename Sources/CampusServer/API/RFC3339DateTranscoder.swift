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
/// fractional seconds and with any offset, as the format allows, when their day in the
/// institution's time zone is one Campus works with.
struct RFC3339DateTranscoder: DateTranscoder {
    struct Invalid: Error, CustomStringConvertible {
        var text: String
        var problem: RFC3339.ReadProblem = .malformed
        var description: String {
            switch problem {
            case .malformed:
                "“\(text)” is not an RFC 3339 date-time such as 2026-11-22T09:00:00Z, from \(DateRules.rangeText)."
            case .outOfRange: "“\(text)” is outside the dates Campus works with, \(DateRules.rangeText)."
            }
        }
    }

    /// The institution's: a date-time is read as the day it is there.
    var timeZone: TimeZone = .gmt

    func encode(_ date: Date) throws -> String { RFC3339.text(date) }

    func decode(_ text: String) throws -> Date {
        switch RFC3339.read(text, in: timeZone) {
        case .success(let date): return date
        case .failure(let problem): throw Invalid(text: String(text.prefix(64)), problem: problem)
        }
    }
}
