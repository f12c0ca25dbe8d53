import CampusAPI
import CampusHTTP
import Foundation
import Listen
import OpenAPIRuntime
import ServiceLifecycle

/// The API of radio stations (`/api/v1/stations`): public to read, admins' to manage.
extension APIHandler {
    var stations: StationService { services.stations }

    func listStations(_ input: Operations.listStations.Input) async throws -> Operations.listStations.Output {
        var found = try await stations.stations()
        if let region = input.query.region, !region.isEmpty {
            found = found.filter { $0.region.caseInsensitiveCompare(region) == .orderedSame }
        }
        if let genre = input.query.genre, !genre.isEmpty {
            found = found.filter { $0.genre.caseInsensitiveCompare(genre) == .orderedSame }
        }
        var items: [Components.Schemas.Station] = []
        let images = try await stations.imageURLs(of: found)
        for station in found { items.append(await api(station, image: images[station.id])) }
        return .ok(.init(body: .json(.init(items: items))))
    }

    func getStation(_ input: Operations.getStation.Input) async throws -> Operations.getStation.Output {
        .ok(.init(body: .json(try await api(try await stations.station(mount: input.path.mount)))))
    }

    func listStationLikes(_ input: Operations.listStationLikes.Input) async throws
        -> Operations.listStationLikes.Output
    {
        let user = try await requireUser().user
        let liked = try await stations.liked(by: user)
        let mounts = try await stations.stations().filter { liked.contains($0.id) }.map(\.mount)
        return .ok(.init(body: .json(.init(mounts: mounts))))
    }

    func likeStation(_ input: Operations.likeStation.Input) async throws -> Operations.likeStation.Output {
        try await stations.like(mount: input.path.mount, true, by: try await requireUser().user)
        return .noContent(.init())
    }

    func unlikeStation(_ input: Operations.unlikeStation.Input) async throws -> Operations.unlikeStation.Output {
        try await stations.like(mount: input.path.mount, false, by: try await requireUser().user)
        return .noContent(.init())
    }

    func createStation(_ input: Operations.createStation.Input) async throws -> Operations.createStation.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the station as JSON.") }
        let draft = StationService.Draft(
            name: body.name, mount: body.mount, description: body.description ?? "", genre: body.genre ?? "",
            region: body.region ?? "", listenerLimit: body.listenerLimit ?? Station.defaultListenerLimit,
            programmeID: body.programmeId, recordsBroadcasts: body.recordsBroadcasts ?? false,
            repeatWindowMinutes: body.repeatWindowMinutes ?? Station.defaultRepeatWindow,
            sourcePassword: body.sourcePassword)
        return .created(.init(body: .json(try await api(try await stations.add(draft, by: user)))))
    }

    func updateStation(_ input: Operations.updateStation.Input) async throws -> Operations.updateStation.Output {
        let user = try await requireUser().user
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the change as JSON.") }
        if user.role != .admin { throw Problem.forbidden("Only admins manage radio stations.") }
        let old = try await stations.station(mount: input.path.mount)
        let draft = StationService.Draft(
            name: body.name ?? old.name, mount: body.mount ?? old.mount,
            description: body.description ?? old.description,
            genre: body.genre ?? old.genre, region: body.region ?? old.region,
            listenerLimit: body.listenerLimit ?? old.listenerLimit, programmeID: body.programmeId ?? old.programmeID,
            recordsBroadcasts: body.recordsBroadcasts ?? old.recordsBroadcasts,
            repeatWindowMinutes: body.repeatWindowMinutes ?? old.repeatWindowMinutes,
            sourcePassword: body.sourcePassword)
        return .ok(.init(body: .json(try await api(try await stations.update(mount: old.mount, draft, by: user)))))
    }

    func deleteStation(_ input: Operations.deleteStation.Input) async throws -> Operations.deleteStation.Output {
        let user = try await requireUser().user
        try await stations.remove(mount: input.path.mount, by: user)
        await services.liveRadio.stationRemoved(input.path.mount)  // Its followers hear that it is gone.
        return .noContent(.init())
    }

    func followStation(_ input: Operations.followStation.Input) async throws -> Operations.followStation.Output {
        let mount = input.path.mount
        _ = try await stations.station(mount: mount)
        let changes = services.radio.changes(of: mount)
        let (events, continuation) = AsyncStream<ArraySlice<UInt8>>.makeStream(bufferingPolicy: .bufferingNewest(16))
        let task = Task {
            /// The station now, or the end of the stream when it is gone.
            func event() async -> ArraySlice<UInt8>? {
                guard let station = try? await stations.station(mount: mount) else { return nil }
                let json = (try? APIJSON.encoder().encode(try await api(station))).map {
                    String(decoding: $0, as: UTF8.self)
                }
                return ServerSentEvent.text(name: "station", id: nil, data: json ?? "{}")
            }
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    guard var last = await event() else { return }
                    continuation.yield(last)
                    for await _ in changes {
                        guard let next = await event() else { break }
                        // A change that leaves the station as it was (a source's broadcast being
                        // set up before it is on the air) says nothing new.
                        guard next != last else { continue }
                        last = next
                        continuation.yield(next)
                    }
                    continuation.yield(ServerSentEvent.text(name: "deleted", id: nil, data: #"{"mount":"\#(mount)"}"#))
                    continuation.finish()
                }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(15))
                        guard let next = await event() else { break }
                        continuation.yield(next)
                    }
                }
                await group.next()
                group.cancelAll()
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in task.cancel() }
        return .ok(
            .init(
                headers: .init(Cache_hyphen_Control: "no-store"),
                body: .text_event_hyphen_stream(
                    HTTPBody(events.cancelOnGracefulShutdown(), length: .unknown, iterationBehavior: .single))))
    }

    func getStationImage(_ input: Operations.getStationImage.Input) async throws -> Operations.getStationImage.Output {
        let image = try await stations.image(mount: input.path.mount)
        let headers = Operations.getStationImage.Output.Ok.Headers(
            Cache_hyphen_Control: "public, max-age=86400",
            ETag: "\"\(input.path.mount)-\(image.updatedAt.epoch)\"")
        return .ok(.init(headers: headers, body: .image(image.data, contentType: image.contentType)))
    }

    func setStationImage(_ input: Operations.setStationImage.Input) async throws -> Operations.setStationImage.Output {
        let user = try await requireUser().user
        let (contentType, body): (String, HTTPBody) =
            switch input.body {
            case .png(let body): ("image/png", body)
            case .jpeg(let body): ("image/jpeg", body)
            case .image_webp(let body): ("image/webp", body)
            }
        if user.role != .admin { throw Problem.forbidden("Only admins manage radio stations.") }
        let data = try await [UInt8](collecting: body, upTo: BodyLimits.stationImage)
        let station = try await stations.setImage(
            mount: input.path.mount, contentType: contentType, data: data, by: user)
        services.radio.changed(station.mount)
        return .ok(.init(body: .json(try await api(station))))
    }

    func deleteStationImage(_ input: Operations.deleteStationImage.Input) async throws
        -> Operations.deleteStationImage.Output
    {
        let user = try await requireUser().user
        try await stations.deleteImage(mount: input.path.mount, by: user)
        services.radio.changed(input.path.mount)
        return .noContent(.init())
    }

    /// A station as the API shows it, with its image looked up.
    private func api(_ station: Station) async throws -> Components.Schemas.Station {
        await api(station, image: try await stations.imageURLs(of: [station])[station.id])
    }

    /// A station as the API shows it: with its broadcast, on whichever instance holds it.
    private func api(_ station: Station, image: String?) async -> Components.Schemas.Station {
        let status = await services.liveRadio.status(of: station.mount)
        return .init(
            id: station.id, name: station.name, mount: station.mount, description: station.description,
            genre: station.genre, region: station.region, listenerLimit: station.listenerLimit,
            programmeId: station.programmeID, recordsBroadcasts: station.recordsBroadcasts,
            imageUrl: image.map { services.configuration.resolvedBaseURL + $0 },
            streamUrl: services.configuration.resolvedBaseURL + RadioRoutes.prefix + station.mount,
            onAir: status.onAir, live: status.live, listeners: status.listeners,
            nowPlaying: status.title.isEmpty ? nil : status.title, onAirSince: status.since,
            repeatWindowMinutes: station.repeatWindowMinutes)
    }
}
