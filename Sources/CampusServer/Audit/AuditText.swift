import Accounts
import Localization

extension AuditAction {
    /// What the action was, as an admin reads it in the page's language.
    func name(_ t: Translator) -> String {
        switch self {
        case .accountCreated: t("Account created", context: "audit")
        case .accountDeleted: t("Account deleted", context: "audit")
        case .roleChanged: t("Role changed", context: "audit")
        case .cardAnswerModerated: t("Teacher card answer moderated", context: "audit")
        case .reportResolved: t("Report resolved", context: "audit")
        case .timetableImported: t("Timetable imported", context: "audit")
        case .timetableSynced: t("Timetable synced", context: "audit")
        case .timetableSettings: t("Timetable setting changed", context: "audit")
        case .timetableDirectory: t("Lesson type or building changed", context: "audit")
        case .libraryScanned: t("Library scanned", context: "audit")
        case .mediaUploaded: t("Audio uploaded", context: "audit")
        case .podcastAdded: t("Podcast imported", context: "audit")
        case .stationCreated: t("Station added", context: "audit")
        case .stationChanged: t("Station changed", context: "audit")
        case .stationDeleted: t("Station deleted", context: "audit")
        case .feedChanged: t("Home feed changed", context: "audit")
        case .competitionDeleted: t("Competition deleted", context: "audit")
        case .resultCorrected: t("Result set by an organizer", context: "audit")
        case .resultAccepted: t("Flagged result accepted", context: "audit")
        case .resultRejected: t("Flagged result rejected", context: "audit")
        case .resultAppealed: t("Rejected result appealed", context: "audit")
        case .organizerAdded: t("Co-organizer added", context: "audit")
        case .organizerRemoved: t("Co-organizer removed", context: "audit")
        case .backupMade: t("Backup made", context: "audit")
        case .twoFactorReset: t("Two-factor sign-in reset", context: "audit")
        case .accountLinked: t("Account linked to the sign-in service", context: "audit")
        }
    }
}

extension AuditActor {
    /// Who acted, as an admin reads it: the account's email, or the server itself.
    func name(_ t: Translator) -> String {
        guard accountID == nil else { return name }
        switch name {
        case AuditActor.commandLine.name: return t("command line", context: "audit")
        case AuditActor.scheduledJob.name: return t("scheduled job", context: "audit")
        case AuditActor.signOn.name: return t("sign-in service", context: "audit")
        default: return name
        }
    }
}
