import Foundation

/// A privileged action that the audit log keeps (issue 40): each is written in the same
/// transaction as the change it records. The raw value is what the log, its API and its filters
/// show; a landed value never changes meaning.
public enum AuditAction: String, Sendable, CaseIterable, Codable {
    case accountCreated = "account.created"
    case accountDeleted = "account.deleted"
    case roleChanged = "account.role"
    case cardAnswerModerated = "teacher-card.moderated"
    case reportResolved = "report.resolved"
    case timetableImported = "timetable.imported"
    case timetableSynced = "timetable.synced"
    case timetableSettings = "timetable.settings"
    /// A lesson type or a building described by an admin.
    case timetableDirectory = "timetable.directory"
    case libraryScanned = "library.scanned"
    case mediaUploaded = "library.uploaded"
    case podcastAdded = "podcast.added"
    case stationCreated = "station.created"
    case stationChanged = "station.changed"
    case stationDeleted = "station.deleted"
    case feedChanged = "feed.changed"
    case competitionDeleted = "competition.deleted"
    case resultCorrected = "result.corrected"
    /// A flagged result an organizer let count, or refused with a reason (issue 41).
    case resultAccepted = "result.accepted"
    case resultRejected = "result.rejected"
    /// A participant's appeal against a refused result.
    case resultAppealed = "result.appealed"
    /// A co-organizer added to or removed from a competition by its owner (or an admin).
    case organizerAdded = "competition.organizer-added"
    case organizerRemoved = "competition.organizer-removed"
    case backupMade = "backup.made"
    /// An account's two-factor sign-in turned off by an admin (a lost phone and lost codes).
    case twoFactorReset = "account.two-factor-reset"
    /// An account linked to a person of the OpenID provider (after its password was given).
    case accountLinked = "account.linked"
}

/// Who did an audited action: an account (through the web app or the API, from an address), or
/// the server itself (the command line, or a scheduled job) when `accountID` is nil.
public struct AuditActor: Sendable, Equatable {
    public var accountID: Int64?
    /// The account's email when it acted, or "command line" / "scheduled job"; kept as written so
    /// the entry still names the actor after the account is deleted.
    public var name: String
    /// The client's address (the first `X-Forwarded-For` entry behind a trusted proxy).
    public var address: String?

    public init(accountID: Int64?, name: String, address: String?) {
        self.accountID = accountID
        self.name = name
        self.address = address
    }

    public static let commandLine = AuditActor(accountID: nil, name: "command line", address: nil)
    public static let scheduledJob = AuditActor(accountID: nil, name: "scheduled job", address: nil)
    /// The OpenID provider: an account it made, a role or group its claims gave.
    public static let signOn = AuditActor(accountID: nil, name: "sign-in service", address: nil)
}

/// What an audited action was done to: a kind ("user", "station", "competition", …), its id, and
/// a label a person recognises (an email, a title) kept as it was.
public struct AuditTarget: Sendable, Equatable {
    public var kind: String
    public var id: String?
    public var label: String?

    public init(kind: String, id: String?, label: String?) {
        self.kind = kind
        self.id = id
        self.label = label
    }

    public init(kind: String, id: Int64, label: String?) {
        self.init(kind: kind, id: String(id), label: label)
    }
}

/// One audited action as it is written; `before` and `after` are short texts (a role, a status,
/// a time), cut to ``AuditEntry/maxDetail`` characters.
public struct AuditEntry: Sendable, Equatable {
    public static let maxDetail = 500
    public var id: Int64
    public var at: Date
    public var action: AuditAction
    public var actor: AuditActor
    public var target: AuditTarget
    public var before: String?
    public var after: String?

    public init(
        id: Int64 = 0, at: Date, action: AuditAction, actor: AuditActor, target: AuditTarget,
        before: String? = nil, after: String? = nil
    ) {
        self.id = id
        self.at = at
        self.action = action
        self.actor = actor
        self.target = target
        self.before = before.map { String($0.prefix(Self.maxDetail)) }
        self.after = after.map { String($0.prefix(Self.maxDetail)) }
    }
}

/// What an admin looks for in the log: any combination of an action, an actor's account, a
/// target (kind and optionally id) and a time range.
public struct AuditFilter: Sendable, Equatable {
    public var action: AuditAction?
    public var actorID: Int64?
    public var targetKind: String?
    public var targetID: String?
    public var since: Date?
    public var until: Date?

    public init(
        action: AuditAction? = nil, actorID: Int64? = nil, targetKind: String? = nil, targetID: String? = nil,
        since: Date? = nil, until: Date? = nil
    ) {
        self.action = action
        self.actorID = actorID
        self.targetKind = targetKind
        self.targetID = targetID
        self.since = since
        self.until = until
    }
}
