import Localization

/// Why a service refused what it was asked, in the words of the domain rather than of a protocol:
/// services throw it (or a ``FieldProblem``, a ``ValidationFailure``, another ``PhrasedError``),
/// and each edge says it once, its own way: the API as a problem document, a page as its flash
/// or error page, the Subsonic API as its error code, the command line as its message and exit
/// status (docs/ARCHITECTURE.md, "Errors").
public struct Refusal: PhrasedError, Sendable, Equatable {
    public enum Reason: Sendable, Equatable {
        /// What was sent cannot be understood as asked, outside any one field's rules.
        case malformed
        /// Fields broke their rules (``Refusal/fields``).
        case invalid
        /// Nobody is signed in, or the credentials are unknown or expired.
        case notSignedIn
        /// The one asking may not do this.
        case notAllowed
        /// What was named does not exist (or the one asking may not know it does).
        case notFound
        /// What was named existed and has gone for good.
        case gone
        /// It contradicts what is there now (already joined, a name taken, not a participant).
        case conflict
        /// More than a limit, which the words say.
        case tooLarge
        /// A format or kind of content that is not taken.
        case unsupportedFormat
        /// Too many attempts or requests from the one asking: again after so many seconds.
        case tooMany(retryAfterSeconds: Int)
        /// Not possible just now (a tool missing, the server busy): again after so many seconds, if known.
        case unavailable(retryAfterSeconds: Int?)
    }

    public var reason: Reason
    public var phrase: Phrase
    /// The fields that broke their rules, for ``Reason/invalid``.
    public var fields: [FieldProblem]
    /// The name of this kind of refusal, for clients to tell it from others of its reason
    /// (`already-joined`; the API's problem type `/problems/already-joined`), and its title.
    public var kind: Kind?

    public struct Kind: Sendable, Equatable {
        public var name: String
        public var title: String
        public init(_ name: String, title: String) {
            self.name = name
            self.title = title
        }
    }

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts are
    /// `values`: `Refusal(.notFound, detail: "There is no room {id}.", ["id": "7"])`.
    public init(
        _ reason: Reason, detail message: String, _ values: [String: String] = [:], kind: Kind? = nil,
        fields: [FieldProblem] = []
    ) {
        self.init(reason, phrase: Phrase(message, values), kind: kind, fields: fields)
    }

    public init(_ reason: Reason, phrase: Phrase, kind: Kind? = nil, fields: [FieldProblem] = []) {
        self.reason = reason
        self.phrase = phrase
        self.kind = kind
        self.fields = fields
    }

    public static func malformed(_ detail: String, _ values: [String: String] = [:]) -> Refusal {
        Refusal(.malformed, detail: detail, values)
    }

    /// Nobody signed in; without words of its own, it says how to log in.
    public static func notSignedIn(_ detail: String? = nil) -> Refusal {
        Refusal(
            .notSignedIn,
            phrase: detail.map { Phrase($0) } ?? Phrase("Log in first: send `Authorization: Bearer <token>`."))
    }

    public static func notAllowed(_ detail: String, _ values: [String: String] = [:]) -> Refusal {
        Refusal(.notAllowed, detail: detail, values)
    }

    public static func notFound(_ detail: String, _ values: [String: String] = [:]) -> Refusal {
        Refusal(.notFound, detail: detail, values)
    }

    public static func conflict(_ detail: String, _ values: [String: String] = [:]) -> Refusal {
        Refusal(.conflict, detail: detail, values)
    }

    public static func unsupportedFormat(_ detail: String, _ values: [String: String] = [:]) -> Refusal {
        Refusal(.unsupportedFormat, detail: detail, values)
    }

    /// Every field that broke its rule; the words are theirs, one after another.
    public static func invalid(_ failure: ValidationFailure) -> Refusal {
        Refusal(.invalid, phrase: Phrase(failure.summary), fields: failure.problems)
    }

    public static func invalid(_ problem: FieldProblem) -> Refusal { invalid(ValidationFailure([problem])) }

    /// More bytes than `limit`.
    public static func tooLarge(limit: Int) -> Refusal {
        Refusal(
            .tooLarge, detail: "The request body is larger than the limit of {limit}.",
            ["limit": ByteCount(limit).description])
    }

    /// Too many failed attempts: the first phrase when the wait is one minute, else the second;
    /// each names `{minutes}`, which is filled here (literal `Phrase("…")`s at the call, so the
    /// catalogue finds them).
    public static func tooManyAttempts(retryAfterSeconds: Int, oneMinute: Phrase, minutes: Phrase) -> Refusal {
        let count = (retryAfterSeconds + 59) / 60
        var phrase = count == 1 ? oneMinute : minutes
        phrase.values["minutes"] = String(count)
        return Refusal(
            .tooMany(retryAfterSeconds: retryAfterSeconds), phrase: phrase,
            kind: Kind("too-many-attempts", title: "Too many failed attempts"))
    }
}

/// A size in bytes, written for people ("1 MiB").
public struct ByteCount: CustomStringConvertible {
    public var bytes: Int
    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
