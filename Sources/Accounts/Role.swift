/// What an account may do. Every organizer is also a user; an admin may do everything.
public enum Role: String, Sendable, CaseIterable, Codable, Comparable {
    /// A student, teacher or listener: joins competitions, keeps a timetable, listens.
    case user
    /// Runs competitions (seed 002's "organizer account").
    case organizer
    /// Manages accounts, imports, the media library and stations.
    case admin

    private var rank: Int {
        switch self {
        case .user: 0
        case .organizer: 1
        case .admin: 2
        }
    }

    public static func < (lhs: Role, rhs: Role) -> Bool { lhs.rank < rhs.rank }

    /// Whether this role includes everything `other` may do.
    public func includes(_ other: Role) -> Bool { self >= other }
}
