import Foundation
import HTTPTypes
import NIOCore
import NIOHTTP1

/// How the framing of a request that HTTP/1's parser cannot follow is answered: one rule for the
/// channel (``ParseErrorProblemHandler``, which writes the answer and closes the connection) and
/// for the handlers (``BrokenRequestBody``, which the request log and the metrics count). It is
/// always the client's doing: 400, or 501 for a transfer coding Campus does not implement; never
/// a 500 (RFC 9112 §6: a server that cannot tell where a request ends answers 400 and closes).
public enum RequestFraming {
    /// The problem with a request's `Transfer-Encoding`, or nil when it has none or a lone
    /// `chunked`, the only transfer coding Campus reads: 501 naming a coding it does not
    /// implement (`gzip, chunked` included: the body would be read as it came), 400 for
    /// `chunked` twice or an empty list.
    public static func transferCodingProblem(_ value: String?) -> Problem? {
        guard let value else { return nil }
        let codings = value.split(separator: ",").map {
            // A coding's name, without its parameters.
            String($0.split(separator: ";", maxSplits: 1).first ?? "").trimmingCharacters(in: .whitespaces)
                .lowercased()
        }
        if codings == ["chunked"] { return nil }
        if let unknown = codings.first(where: { $0 != "chunked" && !$0.isEmpty }) {
            return Problem(
                .notImplemented,
                detail:
                    "Campus does not implement the transfer coding “{coding}”: send the body as it is, with Content-Length or Transfer-Encoding: chunked.",
                ["coding": String(unknown.prefix(40))])
        }
        return Problem(.badRequest, detail: "Transfer-Encoding must be chunked alone, once.")
    }

    /// The answer to a request whose head was read but whose body the parser failed on.
    public static func bodyProblem(_ error: HTTPParserError) -> Problem {
        switch error {
        case .invalidEOFState, .closedConnection:
            return clientLeft
        case .invalidChunkSize:
            return Problem(
                .badRequest,
                detail: "A chunk size in the request body is not a hexadecimal number of at most 16 digits.")
        default:
            return headProblem(error)
        }
    }

    /// The answer to a request line or head the parser could not read.
    public static func headProblem(_ error: HTTPParserError) -> Problem {
        if error == .headerOverflow {
            return Problem(
                .requestHeaderFieldsTooLarge,
                detail: "The request line and headers are larger than the limit of 80 KiB.")
        }
        return Problem(.badRequest, detail: "The request is not valid HTTP/1.1 ({reason}).", ["reason": "\(error)"])
    }

    /// A request whose body ended before it was whole: the client left (or reset the connection).
    /// Nobody reads the answer; the log says 400, not a server error.
    public static let clientLeft = Problem(.badRequest, detail: "The request ended before its body did.")
}

/// A request body that could not be read to its end: its framing broke (a chunk size that is not
/// hexadecimal or overflows) or the client left half-way. ``BodyLimitMiddleware`` wraps whatever
/// the body's stream threw, so that every handler's failure is this one problem (OpenAPI's
/// generated code wraps it once more, in its `ServerError`).
public struct BrokenRequestBody: Error, CustomStringConvertible {
    public let underlying: any Error

    public init(_ underlying: any Error) { self.underlying = underlying }

    public var problem: Problem {
        if let error = underlying as? HTTPParserError { return RequestFraming.bodyProblem(error) }
        return RequestFraming.clientLeft
    }

    public var description: String { "the request body could not be read (\(type(of: underlying)))" }
}
