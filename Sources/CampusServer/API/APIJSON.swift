import CampusHTTP
import Crypto
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
import SharedHelpers
import Storage
import Timetable

/// Encodes API documents as the generated handlers do (sorted keys, RFC 3339 dates), for the
/// answers Campus encodes once and keeps: live ranking events and ranking pages.
enum APIJSON {
    static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let transcoder = RFC3339DateTranscoder()
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(try transcoder.encode(date))
        }
        return encoder
    }

    /// The entity tag of a document as the API encodes it: it changes exactly when the answer does.
    static func entityTag(_ value: some Encodable) throws -> String {
        "\"" + SHA256.hash(data: try encoder().encode(value)).prefix(12).hexadecimal + "\""
    }

    /// Whether the request's `If-None-Match` names `tag`: the client has this answer already.
    static func clientHas(_ tag: String) -> Bool {
        RequestScope.current?.ifNoneMatch.map { EntityTag.matches($0, tag) } ?? false
    }
}
