import CampusHTTP
import Listen

/// Every path of the web app, written once: pages are registered by these routes' patterns
/// (``PageRouter``), and every link, form action and redirect is made from them.
enum SiteRoutes {
    // Site and accounts
    static let home = Route<Void>("/")
    static let login = Route<Void>("/login")
    static let logout = Route<Void>("/logout")
    static let register = Route<Void>("/register")
    /// Signing in at the university's OpenID provider: the start, the provider's way back, and
    /// linking an existing account of the same email.
    static let signOn = Route<Void>("/auth/oidc")
    static let signOnCallback = Route<Void>("/auth/oidc/callback")
    static let signOnLink = Route<Void>("/auth/oidc/link")
    static let forgotPassword = Route<Void>("/password/forgot")
    static let resetPassword = Route<Void>("/password/reset")
    static let profile = Route<Void>("/profile")
    static let profilePassword = Route<Void>("/profile/password")
    static let profileTwoFactor = Route<Void>("/profile/two-factor")
    static let profileAvatar = Route<Void>("/profile/avatar")
    static let profileAvatarDelete = Route<Void>("/profile/avatar/delete")
    static let profileDelete = Route<Void>("/profile/delete")
    static let profilePlayers = Route<Void>("/profile/players")
    static let profilePlayerRevoke = Route<Int64>("/profile/players/{credentialId}/revoke")
    static let adminUsers = Route<Void>("/admin/users")
    static let adminUserRole = Route<Int64>("/admin/users/{userId}/role")
    static let adminAudit = Route<Void>("/admin/audit")
    static let admin = Route<Void>("/admin")
    static let apiDocumentation = Route<Void>("/api")
    static let openAPIYAML = Route<Void>("/openapi.yaml")
    static let openAPIJSON = Route<Void>("/openapi.json")
    static let language = Route<Void>("/language")
    static let about = Route<Void>("/about")
    /// The installed app's service worker: at the root, so that it may answer for every page.
    static let serviceWorker = Route<Void>("/service-worker.js")
    /// The signed-in visitor's pages the service worker keeps for reading offline.
    static let offlinePages = Route<Void>("/offline/pages")
    /// What the installed app shows offline for a page it did not keep.
    static let offline = Route<Void>("/offline")

    // Static files
    static let styleSheet = Route<Void>("/static/campus.css")
    static let script = Route<Void>("/static/campus.js")
    static let playerScript = Route<Void>("/static/player.js")
    static let softNavigationScript = Route<Void>("/static/soft-navigation.js")
    static let offlineScript = Route<Void>("/static/offline.js")
    static let trackingScript = Route<Void>("/static/tracking.js")
    static let icon = Route<Void>("/static/icon.svg")
    /// The icon as a 512×512 PNG: what a share preview shows of a thing without a picture of its
    /// own (previews take no SVG), and the web app manifest's raster icon. Made from icon.svg:
    /// `rsvg-convert -w 512 -h 512 icon.svg -o icon-512.png` (Debian's librsvg2-bin).
    static let shareIcon = Route<Void>("/static/icon-512.png")

    // Timetable
    static let timetable = Route<Void>("/timetable")
    static let groups = Route<Void>("/timetable/groups")
    static let teachers = Route<Void>("/timetable/teachers")
    static let rooms = Route<Void>("/timetable/rooms")
    static let departments = Route<Void>("/timetable/departments")
    static let group = Route<String>("/timetable/groups/{name}")
    static let teacher = Route<String>("/timetable/teachers/{urlId}")
    static let teacherCard = Route<String>("/timetable/teachers/{urlId}/card")
    static let deleteTeacherCardAnswer = Route<String>("/timetable/teachers/{urlId}/card/delete")
    static let moderateTeacherCardAnswer = Route<Int64>("/timetable/card-answers/{answerId}/moderation")
    static let room = Route<Int64>("/timetable/rooms/{roomId}")
    static let freeRooms = Route<Void>("/timetable/rooms/free")
    static let conflicts = Route<Void>("/admin/conflicts")
    static let buildings = Route<Void>("/admin/buildings")
    static let building = Route<Int64>("/admin/buildings/{number}")
    static let lessonTypeStyles = Route<Void>("/timetable/lesson-types.css")
    static let today = Route<Void>("/today")
    static let notifications = Route<Void>("/notifications")
    static let notificationsRead = Route<Void>("/notifications/read")
    static let notificationSettings = Route<Void>("/notifications/settings")
    static let unsubscribe = Route<Void>("/notifications/unsubscribe")
    static let myTimetable = Route<Void>("/timetable/mine")
    static let favorites = Route<Void>("/timetable/mine/favorites")
    static let myTeachers = Route<Void>("/timetable/mine/teachers")
    static let displaySettings = Route<Void>("/timetable/mine/display")
    static let myCalendar = Route<Void>("/timetable/mine/calendar")
    static let lessonNotes = Route<Int64>("/timetable/lessons/{lessonId}/notes")
    static let note = Route<Int64>("/timetable/notes/{noteId}")
    static let deleteNote = Route<Int64>("/timetable/notes/{noteId}/delete")
    static let importNotes = Route<Void>("/timetable/mine/notes/import")
    static let nicknames = Route<Void>("/timetable/mine/nicknames")
    static let lessonColours = Route<Void>("/timetable/mine/colours")
    static let myLessonTypeStyles = Route<Void>("/timetable/mine/lesson-types.css")
    static let savedSchedules = Route<Void>("/timetable/mine/schedules")
    static let electives = Route<Void>("/timetable/mine/electives")
    static let studyProgramme = Route<Void>("/timetable/mine/electives/programme")
    static let elective = Route<Int64>("/timetable/mine/electives/{subjectId}")
    static let deleteElective = Route<Int64>("/timetable/mine/electives/{subjectId}/delete")
    static let savedSchedule = Route<Int64>("/timetable/mine/schedules/{scheduleId}")
    static let deleteSavedSchedule = Route<Int64>("/timetable/mine/schedules/{scheduleId}/delete")
    static let savedScheduleInMine = Route<Int64>("/timetable/mine/schedules/{scheduleId}/mine")
    static let tasks = Route<Void>("/timetable/mine/tasks")
    static let newTask = Route<Void>("/timetable/mine/tasks/new")
    static let task = Route<Int64>("/timetable/mine/tasks/{taskId}")
    static let taskDone = Route<Int64>("/timetable/mine/tasks/{taskId}/done")
    static let deleteTask = Route<Int64>("/timetable/mine/tasks/{taskId}/delete")
    static let taskImages = Route<Int64>("/timetable/mine/tasks/{taskId}/images")
    static let deleteTaskImage = Route2<Int64, Int64>("/timetable/mine/tasks/{taskId}/images/{imageId}/delete")
    static let manifest = Route<Void>("/manifest.webmanifest")

    // Compete
    static let compete = Route<Void>("/compete")
    static let newCompetition = Route<Void>("/compete/new")
    static let competeLibrary = Route<Void>("/compete/library")
    static let competeMine = Route<Void>("/compete/mine")
    static let competeHistory = Route<Void>("/compete/history")
    static let competeStats = Route<Void>("/compete/stats")
    static let competeRecords = Route<Void>("/compete/records")
    static let friends = Route<Void>("/compete/friends")
    static let person = Route<Int64>("/compete/people/{userId}")
    static let followPerson = Route<Int64>("/compete/people/{userId}/follow")
    static let unfollowPerson = Route<Int64>("/compete/people/{userId}/unfollow")
    static let acceptFollower = Route<Int64>("/compete/people/{userId}/accept")
    static let removeFollower = Route<Int64>("/compete/people/{userId}/remove")
    static let competition = Route<Int64>("/compete/{id}")
    static let editCompetition = Route<Int64>("/compete/{id}/edit")
    static let joinCompetition = Route<Int64>("/compete/{id}/join")
    static let leaveCompetition = Route<Int64>("/compete/{id}/leave")
    static let activateCompetition = Route<Int64>("/compete/{id}/activate")
    static let deactivateCompetition = Route<Int64>("/compete/{id}/deactivate")
    static let deleteCompetition = Route<Int64>("/compete/{id}/delete")
    static let participantResult = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/result")
    static let reviewResult = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/review")
    static let appealResult = Route<Int64>("/compete/{id}/appeal")
    static let addActivity = Route<Int64>("/compete/{id}/activities")
    static let deleteActivity = Route2<Int64, Int64>("/compete/{id}/activities/{activityId}/delete")
    static let participantLaps = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/laps")
    static let participantEntry = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/entry")
    static let kickParticipant = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/kick")
    static let competitionOrganizers = Route<Int64>("/compete/{id}/organizers")
    static let removeCompetitionOrganizer = Route2<Int64, Int64>("/compete/{id}/organizers/{userId}/remove")
    static let participantTrack = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/gpx")
    static let liveTracking = Route<Int64>("/compete/{id}/live")
    static let competitionChat = Route<Int64>("/compete/{id}/chat")
    static let deleteChatMessage = Route2<Int64, Int64>("/compete/{id}/chat/{messageId}/delete")
    static let confirmTracking = Route2<Int64, Int64>("/compete/{id}/participants/{userId}/tracking/confirm")

    // Listen
    static let listen = Route<Void>("/listen")
    static let listenSearch = Route<Void>("/listen/search")
    static let genre = Route<Int64>("/listen/genres/{id}")
    static let liked = Route<Void>("/listen/liked")
    static let listenPicks = Route<Void>("/listen/picks")
    static let listenSettings = Route<Void>("/listen/settings")
    static let playlists = Route<Void>("/listen/playlists")
    static let playlist = Route<String>("/listen/playlists/{id}")
    static let marks = Route<Void>("/listen/marks")
    static let rating = Route<Int64>("/listen/ratings/{id}")
    static let author = Route<Int64>("/authors/{id}")
    static let media = Route<Int64>("/media/{id}")
    static let listenLibrary = Route<Void>("/listen/library")
    static let report = Route<Void>("/listen/report")
    static let feedback = Route<Void>("/listen/feedback")
    static let reportQueue = Route<Void>("/listen/library/reports")
    static let resolveReport = Route<Int64>("/listen/library/reports/{id}")
    static let libraryScan = Route<Void>("/listen/library/scan")
    static let libraryPodcast = Route<Void>("/listen/library/podcast")
    static let libraryUpload = Route<Void>("/listen/library/upload")
    static let libraryFeed = Route<Void>("/listen/library/feed")
    static let libraryPicture = Route<Void>("/listen/library/picture")
    static let stations = Route<Void>("/listen/radio")
    static let station = Route<String>("/listen/radio/{mount}")
    static let deleteStation = Route<String>("/listen/radio/{mount}/delete")
    static let stationLike = Route<String>("/listen/radio/{mount}/like")
    static let stationImage = Route<String>("/listen/radio/{mount}/image")
    static let deleteStationImage = Route<String>("/listen/radio/{mount}/image/delete")
    static let stationPlaylists = Route<String>("/listen/radio/{mount}/playlists")
    static let stationShows = Route<String>("/listen/radio/{mount}/shows")
    static let deleteStationShow = Route2<String, Int64>("/listen/radio/{mount}/shows/{id}/delete")
    static let stationDJ = Route<String>("/listen/radio/{mount}/dj")
    static let stationRequests = Route<String>("/listen/radio/{mount}/requests")
    static let deleteStationPlaylist = Route2<String, Int64>("/listen/radio/{mount}/playlists/{id}/delete")
    static let comments = Route<Void>("/listen/comments")
    static let deleteComment = Route<Int64>("/listen/comments/{id}/delete")

    /// `/listen/albums`, `/listen/podcasts`, …: the parents of a kind.
    static func browse(_ kind: ParentKind) -> Route<Void> { Route("/listen/\(kind.rawValue)s") }

    /// `/albums/{id}`, `/podcasts/{id}`, …
    static func parent(_ kind: ParentKind) -> Route<Int64> { Route("/\(kind.rawValue)s/{id}") }

    /// `/albums/{id}/{item}`: a parent's page opened on one of its items (a deep link).
    static func parentItem(_ kind: ParentKind) -> Route2<Int64, Int64> { Route2("/\(kind.rawValue)s/{id}/{item}") }
}

/// The API paths pages and API answers link to (avatars, streams, covers, feeds). Their patterns
/// are openapi.yaml's; a test checks that each is there.
enum APIRoutes {
    static let avatar = Route<Int64>("/api/v1/users/{userId}/avatar")
    static let mediaStream = Route<Int64>("/api/v1/media/{mediaId}/stream")
    static let cover = Route2<Int64, String>("/api/v1/covers/{parentId}/{size}")
    static let groupCalendar = Route<String>("/api/v1/groups/{name}/calendar.ics")
    static let teacherCalendar = Route<String>("/api/v1/teachers/{urlId}/calendar.ics")
    static let roomCalendar = Route<Int64>("/api/v1/rooms/{roomId}/calendar.ics")
    static let personalCalendar = Route<String>("/api/v1/calendars/{token}/calendar.ics")
    static let taskImage = Route2<Int64, Int64>("/api/v1/me/tasks/{taskId}/images/{imageId}")
    static let resultsCSV = Route<Int64>("/api/v1/competitions/{competitionId}/results.csv")
    static let liveRanking = Route<Int64>("/api/v1/competitions/{competitionId}/ranking/live")
    static let tracking = Route<Int64>("/api/v1/competitions/{competitionId}/tracking")
    static let trackingLive = Route<Int64>("/api/v1/competitions/{competitionId}/tracking/live")
    static let chatLive = Route<Int64>("/api/v1/competitions/{competitionId}/messages/live")
    static let finishTracking = Route<Int64>("/api/v1/competitions/{competitionId}/tracking/finish")
    static let podcastFeed = Route<Int64>("/api/v1/podcasts/{parentId}/rss")
    static let programmeFeed = Route<Int64>("/api/v1/programmes/{parentId}/rss")
    static let station = Route<String>("/api/v1/stations/{mount}")
    static let stationLive = Route<String>("/api/v1/stations/{mount}/live")
    static let stationImage = Route<String>("/api/v1/stations/{mount}/image")
    static let stationShowsCalendar = Route<String>("/api/v1/stations/{mount}/shows.ics")
    static let libraryImage = Route<Int64>("/api/v1/library/images/{imageId}")
    static let pushKey = Route<Void>("/api/v1/push/key")
    static let pushSubscriptions = Route<Void>("/api/v1/me/push-subscriptions")
    static let unsubscribe = Route<Void>("/api/v1/notifications/unsubscribe")

    /// The RSS feed of a podcast or a programme.
    static func feed(_ kind: ParentKind) -> Route<Int64> { kind == .programme ? programmeFeed : podcastFeed }

    /// Every route above, for the test that compares them with openapi.yaml.
    static let all: [String] = [
        avatar.pattern, mediaStream.pattern, cover.pattern, groupCalendar.pattern, teacherCalendar.pattern,
        roomCalendar.pattern, personalCalendar.pattern, taskImage.pattern, resultsCSV.pattern, liveRanking.pattern,
        tracking.pattern, trackingLive.pattern, chatLive.pattern, finishTracking.pattern, podcastFeed.pattern,
        programmeFeed.pattern, station.pattern, stationLive.pattern, stationImage.pattern, stationShowsCalendar.pattern,
        libraryImage.pattern,
        pushKey.pattern, pushSubscriptions.pattern, unsubscribe.pattern,
    ]
}
