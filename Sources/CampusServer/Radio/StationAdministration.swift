import Foundation
import Listen

/// A radio station as the command line shows it.
public struct StationSummary: Sendable, Equatable {
    public var id: Int64
    public var name: String
    public var mount: String
    public var genre: String
    public var region: String
    public var listenerLimit: Int
}

extension Administration {
    /// What `campus station add` and `edit` set; nil leaves a field as it is (`edit`), or takes
    /// the default (`add`).
    public struct StationFields: Sendable {
        public var name: String?
        public var mount: String?
        public var description: String?
        public var genre: String?
        public var region: String?
        public var listenerLimit: Int?
        public var sourcePassword: String?
        /// A radio programme's id; 0 takes the programme away.
        public var programmeID: Int64?
        public var recordsBroadcasts: Bool?

        public init(
            name: String? = nil, mount: String? = nil, description: String? = nil, genre: String? = nil,
            region: String? = nil, listenerLimit: Int? = nil, sourcePassword: String? = nil, programmeID: Int64? = nil,
            recordsBroadcasts: Bool? = nil
        ) {
            self.name = name
            self.mount = mount
            self.description = description
            self.genre = genre
            self.region = region
            self.listenerLimit = listenerLimit
            self.sourcePassword = sourcePassword
            self.programmeID = programmeID
            self.recordsBroadcasts = recordsBroadcasts
        }
    }

    public func stationList() async throws -> [StationSummary] {
        try await stations.stations().map(\.summary)
    }

    public func addStation(_ fields: StationFields) async throws -> StationSummary {
        let draft = StationService.Draft(
            name: fields.name ?? "", mount: fields.mount ?? "", description: fields.description ?? "",
            genre: fields.genre ?? "", region: fields.region ?? "",
            listenerLimit: fields.listenerLimit ?? Station.defaultListenerLimit,
            programmeID: fields.programmeID.flatMap { $0 == 0 ? nil : $0 },
            recordsBroadcasts: fields.recordsBroadcasts ?? false, sourcePassword: fields.sourcePassword)
        return try await stations.add(draft, by: nil).summary
    }

    public func editStation(mount: String, _ fields: StationFields) async throws -> StationSummary {
        let old = try await stations.station(mount: mount)
        let draft = StationService.Draft(
            name: fields.name ?? old.name, mount: fields.mount ?? old.mount,
            description: fields.description ?? old.description, genre: fields.genre ?? old.genre,
            region: fields.region ?? old.region, listenerLimit: fields.listenerLimit ?? old.listenerLimit,
            programmeID: fields.programmeID.map { $0 == 0 ? nil : $0 } ?? old.programmeID,
            recordsBroadcasts: fields.recordsBroadcasts ?? old.recordsBroadcasts,
            repeatWindowMinutes: old.repeatWindowMinutes, sourcePassword: fields.sourcePassword)
        return try await stations.update(mount: mount, draft, by: nil).summary
    }

    public func removeStation(mount: String) async throws {
        try await stations.remove(mount: mount, by: nil)
    }
}

extension Station {
    var summary: StationSummary {
        StationSummary(id: id, name: name, mount: mount, genre: genre, region: region, listenerLimit: listenerLimit)
    }
}
