/// Several groups, teachers and rooms under a name (seed 000's compound schedules), kept by a
/// student, with a calendar feed of its own behind a secret token.
public struct SavedSchedule: Sendable, Equatable {
    public var id: Int64
    public var name: String
    /// Groups, teachers and rooms, in the order given (a department is no schedule).
    public var members: [Favorite]
    public var token: String
    /// Whether its lessons join the user's own schedule.
    public var inMySchedule: Bool

    public init(id: Int64, name: String, members: [Favorite], token: String, inMySchedule: Bool = false) {
        self.id = id
        self.name = name
        self.members = members
        self.token = token
        self.inMySchedule = inMySchedule
    }

    public static let nameLength = 100
    public static let memberLimit = 20
    /// The most saved schedules one user keeps.
    public static let limit = 50
}
