/// Something of the timetable a user keeps at hand (seed 000's favorites): a group by its name, a
/// teacher by their URL id, a room or a department by its id.
public struct Favorite: Sendable, Hashable {
    public enum Kind: String, Sendable, CaseIterable {
        case group, teacher, room, department
    }

    public var kind: Kind
    /// The group's name, the teacher's URL id, the room's or the department's id, as the API
    /// writes them in paths.
    public var id: String

    public init(kind: Kind, id: String) {
        self.kind = kind
        self.id = id
    }

    /// The most favorites one user keeps.
    public static let limit = 100
}
