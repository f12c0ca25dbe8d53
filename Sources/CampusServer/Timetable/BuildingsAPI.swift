import CampusAPI
import CampusHTTP
import Foundation
import Timetable

/// Buildings and their places on the map (issue 16, item 4).
extension APIHandler {
    func listBuildings(_ input: Operations.listBuildings.Input) async throws -> Operations.listBuildings.Output {
        .ok(.init(body: .json(try await directory.buildings().map(\.api))))
    }

    func updateBuilding(_ input: Operations.updateBuilding.Input) async throws -> Operations.updateBuilding.Output {
        let account = try await requireUser()
        guard case .json(let body) = input.body else { throw Problem.badRequest("Send the building as JSON.") }
        let building = try await directory.setBuilding(
            number: input.path.number, name: body.name, latitude: body.latitude, longitude: body.longitude,
            by: account.user)
        return .ok(.init(body: .json(building.api)))
    }
}

extension Building {
    var api: Components.Schemas.Building {
        .init(
            number: number, name: name, latitude: point?.latitude, longitude: point?.longitude,
            mapUrl: point?.openStreetMapURL, roomCount: roomCount)
    }
}
