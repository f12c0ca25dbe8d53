import Foundation
import Listen

/// `/listen/radio`: the stations, by name.
struct StationsPage: PageModel {
    static let template = "radio-stations"
    static let section: SiteSection? = .listen

    struct Station: Sendable {
        var name: String
        var mount: String
        /// Its genre and region.
        var detail: String
        var url: String
        var stream: String
        /// The station's image, if it has one.
        var image: String?
        var onAir: Bool
        var state: String
        var nowPlaying: String
        var listeners: String
        /// Where the page asks what plays now.
        var api: String

        /// A station as other pages show it to play (search, the home feed): without its live state,
        /// which the player follows once it plays.
        static func playable(name: String, mount: String, detail: String, image: String?) -> Station {
            Station(
                name: name, mount: mount, detail: detail, url: SiteRoutes.station.path(mount),
                stream: RadioRoutes.prefix + mount, image: image, onAir: false, state: "", nowPlaying: "",
                listeners: "", api: APIRoutes.station.path(mount))
        }
    }

    struct Choice: Sendable {
        var value: String
        var selected: Bool
    }

    var stations: [Station]
    var empty: Bool
    var region: String
    var hasRegion: Bool
    var regions: [Choice]
    var genres: [Choice]
    var genre: String
    /// Admins add stations here.
    var isAdmin: Bool
    /// A new station's form as it was sent, when it comes back with `errors`.
    var newStation: StationForm?
    var errors = FieldErrors()
}

/// `/listen/radio/{mount}`: a station's live player and now-playing.
struct StationPage: PageModel {
    static let template = "radio-station"
    static let section: SiteSection? = .listen

    /// A station's fields as its admin form shows them.
    struct Form: Sendable {
        var name: String
        var mount: String
        var description: String
        var genre: String
        var region: String
        var listenerLimit: String
        /// The radio programmes to record into and play the fallback from, the station's chosen.
        var programmes: [Programme]
        var noProgramme: Bool
        var recordsBroadcasts: Bool
        var repeatWindowMinutes: String

        struct Programme: Sendable {
            var id: Int64
            var title: String
            var selected: Bool
        }

        init(_ station: Listen.Station, programmes: [Parent]) {
            name = station.name
            mount = station.mount
            description = station.description
            genre = station.genre
            region = station.region
            listenerLimit = String(station.listenerLimit)
            self.programmes = programmes.map {
                Programme(id: $0.id, title: $0.title, selected: $0.id == station.programmeID)
            }
            noProgramme = station.programmeID == nil
            recordsBroadcasts = station.recordsBroadcasts
            repeatWindowMinutes = String(station.repeatWindowMinutes)
        }

        /// Shows what was sent (a form that comes back with its errors).
        mutating func take(_ form: StationForm) {
            name = form.name ?? ""
            mount = form.mount ?? ""
            description = form.description ?? ""
            genre = form.genre ?? ""
            region = form.region ?? ""
            listenerLimit = form.listenerLimit ?? ""
            let chosen = form.programme.flatMap { Int64($0) }
            for index in programmes.indices { programmes[index].selected = programmes[index].id == chosen }
            noProgramme = chosen == nil
            recordsBroadcasts = form.recordsBroadcasts == "on"
            repeatWindowMinutes = form.repeatWindowMinutes ?? ""
        }
    }

    var station: StationsPage.Station
    var description: String
    /// The listener likes the station (and is told when it goes on the air); where the like
    /// button posts.
    var liked: Bool
    var likeURL: String
    var isAdmin: Bool
    var form: Form?
    var deleteURL: String
    /// Where admins upload the station's image, and remove it (when it has one).
    var imageURL: String
    var deleteImageURL: String?
    var errors = FieldErrors()
    /// The change form is open: it came back with its errors.
    var editOpen = false
    var imageError: String?
    /// What the station played last, newest first.
    var history: [Play] = []
    var hasHistory = false
    /// Admins' AutoDJ playlists.
    var autoDJ: StationAutoDJPanel?
    /// The show schedule, and its DJs' credentials.
    var shows: StationShowsPanel
    /// Admins' listener statistics.
    var listeners: StationListenersPanel?
    /// Listeners' requests, when the station takes them.
    var requests: StationRequestsPanel?

    /// A track the station played.
    struct Play: Sendable {
        var at: String
        var title: String
        /// A live source said it (else AutoDJ played it).
        var live: Bool
    }
}

/// A station's form: a new one needs its source password; a change without one keeps it.
struct StationForm: PageForm {
    var _csrf: String?
    var name: String?
    var mount: String?
    var description: String?
    var genre: String?
    var region: String?
    var listenerLimit: String?
    var sourcePassword: String?
    /// A radio programme's id; empty for none.
    var programme: String?
    /// "on" when each broadcast is recorded.
    var recordsBroadcasts: String?
    /// Minutes AutoDJ waits before a track plays again; absent keeps the default.
    var repeatWindowMinutes: String?

    func draft(password: String?) -> StationService.Draft {
        StationService.Draft(
            name: name ?? "", mount: (mount ?? "").trimmingCharacters(in: .whitespaces),
            description: description ?? "", genre: genre ?? "", region: region ?? "",
            listenerLimit: listenerLimit.flatMap { Int($0.trimmingCharacters(in: .whitespaces)) } ?? 0,
            programmeID: programme.flatMap { Int64($0) }, recordsBroadcasts: recordsBroadcasts == "on",
            repeatWindowMinutes: repeatWindowMinutes.map { Int($0.trimmingCharacters(in: .whitespaces)) ?? -1 }
                ?? Station.defaultRepeatWindow,
            sourcePassword: password)
    }
}

/// Like a station (`like` "on"), or no longer.
struct StationLikeForm: PageForm {
    var _csrf: String?
    var like: String?
}

/// A station's image, uploaded from its page.
struct StationImageForm: PageForm {
    var _csrf: String?
    var image: Data?
}
