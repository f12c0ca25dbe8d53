import Accounts
import ArgumentParser
import CampusServer
import Foundation

/// `campus serve`'s options for what a university's IT department sets: how long the audit log
/// keeps its entries, the roles that need two-factor sign-in, and scheduled backups.
struct AdministrationOptions: ParsableArguments {
    @Option(
        name: .customLong("audit-keep-days"),
        help:
            "Days the audit log keeps an entry before housekeeping removes it (default 400; env CAMPUS_AUDIT_KEEP_DAYS)."
    )
    var auditKeepDays: Int?

    @Option(
        name: .customLong("backup-every"),
        help: ArgumentHelp(
            "Make a backup this often, as 24h, 90m or 7d (default: none; env CAMPUS_BACKUP_EVERY).",
            valueName: "interval"))
    var backupEvery: String?

    @Option(
        name: .customLong("backup-keep"),
        help: "How many scheduled backups to keep (default 7; env CAMPUS_BACKUP_KEEP).")
    var backupKeep: Int?

    @Option(
        name: .customLong("backup-dir"),
        help: ArgumentHelp(
            "Where scheduled backups go (default: backups in the data directory; env CAMPUS_BACKUP_DIR).",
            valueName: "folder"))
    var backupDirectory: String?

    @Option(
        name: .customLong("require-2fa-for"),
        help: ArgumentHelp(
            "Roles that act only with two-factor sign-in on, comma-separated: admin, organizer (env CAMPUS_REQUIRE_2FA_FOR).",
            valueName: "roles"))
    var requireTwoFactorFor: String?

    private var twoFactorRoles: [Role?] {
        (requireTwoFactorFor ?? Environment.value("CAMPUS_REQUIRE_2FA_FOR") ?? "").split(separator: ",").map {
            Role(rawValue: $0.trimmingCharacters(in: .whitespaces))
        }
    }

    private var every: String? { backupEvery ?? Environment.value("CAMPUS_BACKUP_EVERY") }
    private var keep: Int? { backupKeep ?? Environment.value("CAMPUS_BACKUP_KEEP").flatMap { Int($0) } }

    /// An interval written as a number and a unit: `s`, `m`, `h` or `d`.
    static func interval(_ text: String) -> Duration? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()), number > 0,
            number * unit >= 60, number * unit <= 366 * 86_400
        else { return nil }
        return .seconds(number * unit)
    }

    private var keepDays: Int? {
        auditKeepDays ?? Environment.value("CAMPUS_AUDIT_KEEP_DAYS").flatMap { Int($0) }
    }

    func validate() throws {
        if let days = keepDays, !(1...36_500).contains(days) {
            throw ValidationError("--audit-keep-days is a number of days from 1 to 36500.")
        }
        if let every, Self.interval(every) == nil {
            throw ValidationError("--backup-every is an interval from 1m to 366d, such as 24h, 90m or 7d.")
        }
        if twoFactorRoles.contains(where: { $0 == nil }) {
            throw ValidationError("--require-2fa-for takes roles: admin, organizer, user, comma-separated.")
        }
        if let keep, !(1...1000).contains(keep) {
            throw ValidationError("--backup-keep is a number from 1 to 1000.")
        }
    }

    func apply(to configuration: inout ServerConfiguration) {
        if let days = keepDays { configuration.auditKept = .seconds(days * 86_400) }
        configuration.twoFactorRoles = Set(twoFactorRoles.compactMap { $0 })
        configuration.backupInterval = every.flatMap(Self.interval)
        if let keep { configuration.backupsKept = keep }
        configuration.backupDirectory = backupDirectory ?? Environment.value("CAMPUS_BACKUP_DIR")
    }
}
