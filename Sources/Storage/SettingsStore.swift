import SQLKit

/// Every key of the server-wide `settings` table: what the server keeps about itself, one value
/// per key.
public enum SettingKey: String, Sendable, CaseIterable {
    /// The institution's name, shown on every page.
    case institutionName = "institution.name"
    /// The secret that signs links and CSRF tokens, made on first start.
    case serverSecret = "server.secret"
    /// The Web Push (VAPID) private key, made on first start like the secret and kept with it.
    case pushKey = "push.vapid_key"
    /// The study calendar (`odd-even 2026-09-01` or a list of weeks).
    case studyCalendar = "timetable.calendar"
    /// The numbered pairs of a study day (`09:00-10:20 10:35-11:55 …`); BSUIR's when unset.
    case pairTimes = "timetable.pairs"
    /// Changes whenever the timetable does, so cached answers know they are old.
    case timetableVersion = "timetable.version"
    /// The name of the media directory every instance must share (``MediaDirectory``'s marker).
    case mediaDirectoryID = "media.directory"
    /// When an admin last changed the home feed's blocks (seconds since 1970).
    case feedChanged = "listen.feed_changed"
}

/// The server-wide settings, typed by ``SettingKey``. Every method runs on the `SQLDatabase` it is
/// given, so callers choose the transaction.
public struct SettingsStore: Sendable {
    let db: any SQLDatabase

    public init(_ db: any SQLDatabase) { self.db = db }

    public func value(_ key: SettingKey) async throws -> String? {
        try await db.select().column("value").from("settings").where("key", .equal, key.rawValue)
            .first(decodingColumn: "value", as: String.self)
    }

    public func set(_ key: SettingKey, to value: String) async throws {
        try await db.delete(from: "settings").where("key", .equal, key.rawValue).run()
        try await db.insert(into: "settings").columns("key", "value").values(SQLBind(key.rawValue), SQLBind(value))
            .run()
    }
}
