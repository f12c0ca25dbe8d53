import CampusAPI
import CampusHTTP
import Compete
import Foundation
import OpenAPIRuntime
import ServiceLifecycle
import Storage

/// `/api/v1/competitions/{id}/tracking` and a participant's `/tracking`: live tracking from the
/// phone (``CompeteService/track(_:points:by:)`` and the rest).
extension APIHandler {
    func sendTrackingPoints(_ input: Operations.sendTrackingPoints.Input) async throws
        -> Operations.sendTrackingPoints.Output
    {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the positions as JSON.") }
        let points = body.points.map {
            TrackPoint(latitude: $0.lat, longitude: $0.lon, elevation: $0.ele, time: $0.time)
        }
        let stored = try await compete.track(input.path.competitionId, points: points, by: user)
        return .ok(.init(body: .json(.init(tracking: stored.tracking.api, added: stored.added.count))))
    }

    func listTrackings(_ input: Operations.listTrackings.Input) async throws -> Operations.listTrackings.Output {
        let user = try await requireUser().user
        let (_, trackings) = try await compete.trackings(input.path.competitionId, for: user)
        return .ok(.init(body: .json(trackings.map(\.api))))
    }

    func followTracking(_ input: Operations.followTracking.Input) async throws -> Operations.followTracking.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let (_, trackings) = try await compete.trackings(id, for: user)
        let stream = services.liveTracks.subscribe(competitionID: id, current: trackings).cancelOnGracefulShutdown()
        return .ok(
            .init(
                headers: .init(Cache_hyphen_Control: "no-store"),
                body: .text_event_hyphen_stream(HTTPBody(stream, length: .unknown, iterationBehavior: .single))))
    }

    func finishTracking(_ input: Operations.finishTracking.Input) async throws -> Operations.finishTracking.Output {
        let user = try await requireUser().user
        let id = input.path.competitionId
        let (tracking, entry) = try await compete.finishTracking(id, by: user)
        let competition = try await compete.visible(id, to: user).competition
        return .ok(
            .init(
                body: .json(
                    .init(
                        tracking: tracking.api,
                        entry: entry.map { $0.api(rank: nil, competition: competition, email: nil) }))))
    }

    func getTracking(_ input: Operations.getTracking.Input) async throws -> Operations.getTracking.Output {
        let user = try await requireUser().user
        let path = input.path
        let (name, tracking, points) = try await compete.tracking(
            path.competitionId, participant: path.userId, for: user)
        let track = tracking?.track ?? LiveTrack(points: [])
        return .ok(
            .init(
                body: .json(
                    .init(
                        participant: .init(id: path.userId, name: name), distanceMeters: track.distanceMetres,
                        movingSeconds: track.movingSeconds, elapsedSeconds: track.elapsedSeconds,
                        finished: tracking?.finishedAt != nil, points: points.map(\.api)))))
    }

    func confirmTracking(_ input: Operations.confirmTracking.Input) async throws -> Operations.confirmTracking.Output {
        let user = try await requireUser().user
        let path = input.path
        let entry = try await compete.confirmTracking(path.competitionId, participant: path.userId, by: user)
        let competition = try await compete.visible(path.competitionId, to: user).competition
        return .ok(.init(body: .json(entry.api(rank: nil, competition: competition, email: nil))))
    }
}

extension Tracking {
    var api: Components.Schemas.TrackingSummary {
        .init(
            participant: .init(id: userID, name: participantName), distanceMeters: track.distanceMetres,
            movingSeconds: track.movingSeconds, elapsedSeconds: track.elapsedSeconds, pointCount: track.points,
            batch: batch, startedAt: startedAt, updatedAt: updatedAt, finished: finishedAt != nil,
            finishedAt: finishedAt, last: track.last?.api)
    }
}

extension TrackPoint {
    var api: Components.Schemas.TrackingPoint {
        .init(lat: latitude, lon: longitude, ele: elevation, time: time ?? Date(timeIntervalSince1970: 0))
    }
}

/// The data of the live tracks' SSE events, as JSON text.
enum TrackingJSON {
    /// A `position` event: the track's summary with `added`, its new positions as
    /// `[latitude, longitude, milliseconds]`.
    static func position(_ tracking: Tracking, _ added: [TrackPoint]) -> String {
        var json = summary(tracking)
        json.removeLast()
        json += #","added":["#
        json += added.map { point in
            "[\(point.latitude),\(point.longitude),\(Int64(((point.time ?? .distantPast).timeIntervalSince1970 * 1000).rounded()))]"
        }.joined(separator: ",")
        json += "]}"
        return json
    }

    /// A `tracks` event: every track's summary.
    static func tracks(_ trackings: [Tracking]) -> String {
        "[" + trackings.map(summary).joined(separator: ",") + "]"
    }

    static func summary(_ tracking: Tracking) -> String {
        let data = (try? APIJSON.encoder().encode(tracking.api)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
