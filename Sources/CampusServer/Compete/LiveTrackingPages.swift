import Accounts
import CampusHTTP
import Compete
import Foundation
import Storage

/// The live race page: every tracked participant's track and position on an SVG map (no map
/// tiles from outside; a link to OpenStreetMap for each), their distance and moving time, kept
/// up to date by the live tracks' events (tracking.js); and the organizer's confirmation of a
/// live track as a participant's result.
struct LiveTrackingPages: Sendable {
    let compete: CompeteService

    /// Positions drawn on one page at most: more are thinned (``CompeteStore/trackingPoints(competitionID:limit:)``).
    static let drawnPoints = 20_000

    func register(on pages: PageRouter) {
        pages.signedInPage(SiteRoutes.liveTracking, live)
        pages.form(SiteRoutes.confirmTracking, CSRFForm.self) { request, account, _ in
            let participant = try request.id("userId")
            return try await CompetitionActionAnswer.shown(request) { id in
                let entry = try await compete.confirmTracking(id, participant: participant, by: account.user)
                let competition = try await compete.visible(id, to: account.user).competition
                let text = CompeteText(t: request.t)
                let result = entry.result.map { text.result($0, metric: competition.metric, unit: competition.unit) }
                return request.t("The live track gives {result}.", ["result": result ?? ""])
            }
        }
    }

    @Sendable func live(_ request: PageRequest, _ account: Authenticated) async throws -> PageAnswer {
        let id = try request.id()
        let (visible, trackings, points) = try await compete.liveMap(id, for: account.user, limit: Self.drawnPoints)
        let map = TrackMap(trackings.map { points[$0.userID] ?? [] })
        let text = CompeteText(t: request.t)
        return .page(
            LiveTrackingPage(
                id: id, name: visible.competition.name, competitionURL: SiteRoutes.competition.path(id),
                liveURL: APIRoutes.trackingLive.path(id), viewBox: map.viewBox, west: String(map.west),
                north: String(map.north), cosine: String(map.cosine), scale: String(map.scale),
                decimalSeparator: text.t(".", context: "decimal separator"),
                lines: trackings.enumerated().map { index, tracking in
                    let track = points[tracking.userID] ?? []
                    let last = tracking.track.last ?? track.last
                    return LiveTrackingPage.Line(
                        userId: tracking.userID, name: tracking.participantName, points: map.polyline(track),
                        x: last.map { TrackMap.tenths(map.x($0)) } ?? "0",
                        y: last.map { TrackMap.tenths(map.y($0)) } ?? "0",
                        east: last.map { map.x($0) > TrackMap.width / 2 } ?? false, colour: index % 8,
                        distance: text.result(tracking.track.distanceMetres / 1000, metric: .distance, unit: "km"),
                        moving: text.t("moving {moving}", ["moving": ResultText.clock(tracking.track.movingSeconds)]),
                        finished: tracking.finishedAt != nil,
                        osmURL: last.map(Self.openStreetMap), me: tracking.userID == account.user.id)
                },
                empty: trackings.isEmpty, isLive: compete.isLive(visible.competition)))
    }

    /// The signed-in participant's tracking panel on the competition's page: a joined participant
    /// of an active competition of distance or time.
    static func panel(_ visible: CompeteService.Visible, mine: Tracking?, _ text: CompeteText)
        -> CompetitionPage.TrackingPanel?
    {
        let competition = visible.competition
        guard visible.isJoined, competition.isActive, competition.metric != .points else { return nil }
        return .init(
            sendURL: APIRoutes.tracking.path(competition.id), finishURL: APIRoutes.finishTracking.path(competition.id),
            state: mine.map { figures($0, text) }, finished: mine?.finishedAt != nil,
            becomesResult: competition.participantUploads,
            decimalSeparator: text.t(".", context: "decimal separator"))
    }

    /// A live track's distance and moving time: "3.2 km, moving 0:15:00".
    static func figures(_ tracking: Tracking, _ text: CompeteText) -> String {
        text.t(
            "{distance}, moving {moving}",
            [
                "distance": text.result(tracking.track.distanceMetres / 1000, metric: .distance, unit: "km"),
                "moving": ResultText.clock(tracking.track.movingSeconds),
            ])
    }

    /// OpenStreetMap at a position, with a marker.
    static func openStreetMap(_ point: TrackPoint) -> String {
        let lat = String(format: "%.5f", point.latitude)
        let lon = String(format: "%.5f", point.longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=17/\(lat)/\(lon)"
    }
}

struct LiveTrackingPage: PageModel {
    static let template = "compete-live"
    static let section: SiteSection? = .compete

    /// A participant's track, position and figures.
    struct Line: Sendable {
        var userId: Int64
        var name: String
        /// The SVG polyline's points.
        var points: String
        var x: String
        var y: String
        /// In the drawing's east half: the name goes left of the marker.
        var east: Bool
        /// One of eight colours (`.track-0` … `.track-7`).
        var colour: Int
        var distance: String
        var moving: String
        var finished: Bool
        var osmURL: String?
        var me: Bool
    }

    var id: Int64
    var name: String
    var competitionURL: String
    var liveURL: String
    var viewBox: String
    /// The map's projection (``TrackMap``), for the script that draws new positions.
    var west: String
    var north: String
    var cosine: String
    var scale: String
    var decimalSeparator: String
    var lines: [Line]
    var empty: Bool
    var isLive: Bool
}
