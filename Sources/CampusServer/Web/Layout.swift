import Accounts
import Foundation
import Localization
import Storage

/// What the layout around every page shows: the institution, the signed-in user, the flash
/// message, the navigation, and the links every page has.
struct Layout: Sendable {
    var csrf: String
    var institution: String
    var demo: Bool
    var year: Int
    var user: LayoutUser?
    var isAdmin: Bool
    var flash: Flash?
    var nav: Navigation
    /// The page's path, where a form on it comes back to (`back`).
    var back: String
    /// The page's language (`<html lang>`), and every language for the footer's switcher.
    var lang: String
    var languages: [LanguageOption]
    /// The scripts' messages in the page's language (`window.campus.t`).
    var scriptMessages: [ScriptMessage]
    /// The signed-in user's unread notifications, for the bell; nil for a visitor or none.
    var unread: Int?
    /// The account's role waits for two-factor sign-in (`--require-2fa-for`): every page says so.
    var twoFactorNeeded = false
    /// Visitors may register with a password (not with `--password-sign-in off`).
    var registration = true
    var links = SiteLinks()
}

/// A language in the footer's switcher: its code, its name in itself, and whether it is the
/// page's.
struct LanguageOption: Sendable {
    var code: String
    var name: String
    var current: Bool

    static func all(_ languages: Languages, current: String) -> [LanguageOption] {
        languages.catalogues.map { LanguageOption(code: $0.code, name: $0.name, current: $0.code == current) }
    }
}

/// The signed-in user as the layout and the profile show them.
struct LayoutUser: Sendable {
    var id: Int64
    var firstName: String
    var lastName: String
    var fullName: String
    var email: String
    var role: String
    var group: String?
    var subgroup: Int
    var initials: String
    var isOrganizer: Bool
    var isAdmin: Bool
    /// nil without an avatar (the initials show instead).
    var avatarUrl: String?

    init(_ user: Account) {
        id = user.id
        firstName = user.firstName
        lastName = user.lastName
        fullName = user.fullName
        email = user.email
        role = user.role.rawValue
        group = user.group
        subgroup = user.subgroup
        initials = String(user.firstName.prefix(1) + user.lastName.prefix(1)).uppercased()
        isOrganizer = user.role.includes(.organizer)
        isAdmin = user.role == .admin
        avatarUrl = user.avatarUpdatedAt.map { APIRoutes.avatar.path(user.id, query: [("v", String($0.epoch))]) }
    }
}

/// Which section the page is in, for the navigation.
struct Navigation: Sendable {
    var home = false
    var timetable = false
    var listen = false
    var compete = false
    var profile = false
    var admin = false

    init(_ section: SiteSection?) {
        switch section {
        case .home: home = true
        case .timetable: timetable = true
        case .listen: listen = true
        case .compete: compete = true
        case .profile: profile = true
        case .admin: admin = true
        case nil: break
        }
    }
}

/// The paths of the site without parameters, from ``SiteRoutes``, for the layout and every
/// template (`{{links.login}}`).
struct SiteLinks: Sendable {
    var home = SiteRoutes.home.path
    var login = SiteRoutes.login.path
    var logout = SiteRoutes.logout.path
    var register = SiteRoutes.register.path
    var forgotPassword = SiteRoutes.forgotPassword.path
    var resetPassword = SiteRoutes.resetPassword.path
    var profile = SiteRoutes.profile.path
    var profilePassword = SiteRoutes.profilePassword.path
    var profileAvatar = SiteRoutes.profileAvatar.path
    var profileAvatarDelete = SiteRoutes.profileAvatarDelete.path
    var profileDelete = SiteRoutes.profileDelete.path
    var profilePlayers = SiteRoutes.profilePlayers.path
    var adminUsers = SiteRoutes.adminUsers.path
    var adminAudit = SiteRoutes.adminAudit.path
    var admin = SiteRoutes.admin.path
    var profileTwoFactor = SiteRoutes.profileTwoFactor.path
    var apiDocumentation = SiteRoutes.apiDocumentation.path
    var openAPIYAML = SiteRoutes.openAPIYAML.path
    var openAPIJSON = SiteRoutes.openAPIJSON.path
    var styleSheet = StaticFiles.link(SiteRoutes.styleSheet)
    var script = StaticFiles.link(SiteRoutes.script)
    var playerScript = StaticFiles.link(SiteRoutes.playerScript)
    var softNavigationScript = StaticFiles.link(SiteRoutes.softNavigationScript)
    var offlineScript = StaticFiles.link(SiteRoutes.offlineScript)
    var trackingScript = StaticFiles.link(SiteRoutes.trackingScript)
    var offline = SiteRoutes.offline.path
    var icon = StaticFiles.link(SiteRoutes.icon)
    var timetable = SiteRoutes.timetable.path
    var groups = SiteRoutes.groups.path
    var teachers = SiteRoutes.teachers.path
    var rooms = SiteRoutes.rooms.path
    var departments = SiteRoutes.departments.path
    var freeRooms = SiteRoutes.freeRooms.path
    var conflicts = SiteRoutes.conflicts.path
    var buildings = SiteRoutes.buildings.path
    var lessonTypeStyles = SiteRoutes.lessonTypeStyles.path
    var today = SiteRoutes.today.path
    var notifications = SiteRoutes.notifications.path
    var notificationsRead = SiteRoutes.notificationsRead.path
    var notificationSettings = SiteRoutes.notificationSettings.path
    var unsubscribe = SiteRoutes.unsubscribe.path
    var pushKey = APIRoutes.pushKey.path
    var pushSubscriptions = APIRoutes.pushSubscriptions.path
    var myTimetable = SiteRoutes.myTimetable.path
    var favorites = SiteRoutes.favorites.path
    var myTeachers = SiteRoutes.myTeachers.path
    var displaySettings = SiteRoutes.displaySettings.path
    var myCalendar = SiteRoutes.myCalendar.path
    var nicknames = SiteRoutes.nicknames.path
    var lessonColours = SiteRoutes.lessonColours.path
    var myLessonTypeStyles = SiteRoutes.myLessonTypeStyles.path
    var savedSchedules = SiteRoutes.savedSchedules.path
    var electives = SiteRoutes.electives.path
    var studyProgramme = SiteRoutes.studyProgramme.path
    var tasks = SiteRoutes.tasks.path
    var importNotes = SiteRoutes.importNotes.path
    var newTask = SiteRoutes.newTask.path
    var manifest = SiteRoutes.manifest.path
    var compete = SiteRoutes.compete.path
    var newCompetition = SiteRoutes.newCompetition.path
    var competeLibrary = SiteRoutes.competeLibrary.path
    var competeMine = SiteRoutes.competeMine.path
    var competeHistory = SiteRoutes.competeHistory.path
    var competeStats = SiteRoutes.competeStats.path
    var competeRecords = SiteRoutes.competeRecords.path
    var friends = SiteRoutes.friends.path
    var listen = SiteRoutes.listen.path
    var listenSearch = SiteRoutes.listenSearch.path
    var albums = SiteRoutes.browse(.album).path
    var podcasts = SiteRoutes.browse(.podcast).path
    var audiobooks = SiteRoutes.browse(.audiobook).path
    var programmes = SiteRoutes.browse(.programme).path
    var liked = SiteRoutes.liked.path
    var listenPicks = SiteRoutes.listenPicks.path
    var listenSettings = SiteRoutes.listenSettings.path
    var stations = SiteRoutes.stations.path
    var playlists = SiteRoutes.playlists.path
    var marks = SiteRoutes.marks.path
    var listenLibrary = SiteRoutes.listenLibrary.path
    var report = SiteRoutes.report.path
    var feedback = SiteRoutes.feedback.path
    var reportQueue = SiteRoutes.reportQueue.path
    var about = SiteRoutes.about.path
    var libraryScan = SiteRoutes.libraryScan.path
    var libraryPodcast = SiteRoutes.libraryPodcast.path
    var libraryUpload = SiteRoutes.libraryUpload.path
    var libraryFeed = SiteRoutes.libraryFeed.path
    var libraryPicture = SiteRoutes.libraryPicture.path
    var comments = SiteRoutes.comments.path
    var language = SiteRoutes.language.path
}
