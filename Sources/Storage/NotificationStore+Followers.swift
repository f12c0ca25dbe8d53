import Foundation
import SQLKit

/// Who follows a schedule: the users a change of a group's, teacher's or room's lessons concerns.
public struct Follower: Sendable, Hashable {
    public enum Reason: Sendable, Hashable {
        /// The user's own group (`subgroup` theirs, 0 for the whole group).
        case ownGroup(subgroup: Int)
        /// A saved schedule the user shows in My timetable holds it.
        case savedSchedule
        /// The group of an elective the user takes (seed 003: `subject-group`).
        case elective
        /// One of the user's favorites.
        case favorite
    }

    public var userID: Int64
    public var target: ChangeTarget
    public var reason: Reason
}

/// The push subscriptions of the notification centre's users, and who follows what.
extension NotificationStore {
    /// Everybody who follows one of `targets`, once per user, target and reason.
    public func followers(of targets: Set<ChangeTarget>) async throws -> [Follower] {
        var found: [Follower] = []
        let groups = targets.compactMap { target -> String? in
            if case .group(let name) = target { return name }
            return nil
        }
        for part in groups.chunked(500) {
            for row in try await db.select().columns("id", "study_group", "subgroup").from("users")
                .where("study_group", .in, Array(part)).all()
            {
                found.append(
                    Follower(
                        userID: try row.decode(column: "id", as: Int64.self),
                        target: .group(try row.decode(column: "study_group", as: String.self)),
                        reason: .ownGroup(subgroup: try row.decode(column: "subgroup", as: Int.self))))
            }
        }
        // Electives' groups are named `subject-group` (``Electives/groupName(subject:group:)``).
        for name in groups {
            let parts = name.split(separator: "-")
            guard parts.count == 2, let subject = Int64(parts[0]), let number = Int(parts[1]) else { continue }
            for userID in try await db.select().column("user_id").from("elective_choices")
                .where("subject_id", .equal, subject).where("group_number", .equal, number)
                .all(decodingColumn: "user_id", as: Int64.self)
            {
                found.append(Follower(userID: userID, target: .group(name), reason: .elective))
            }
        }
        for kind in ["group", "teacher", "room"] {
            let keys = targets.filter { $0.kind == kind }.map(\.key)
            for part in keys.chunked(500) {
                let members = try await db.raw(
                    """
                    SELECT DISTINCT s.user_id, m.target FROM saved_schedule_members m
                    JOIN saved_schedules s ON s.id = m.schedule_id
                    WHERE s.in_my_schedule = \(bind: true) AND m.kind = \(bind: kind) AND m.target IN (\(binds: Array(part)))
                    """
                ).all()
                for row in members {
                    found.append(
                        Follower(
                            userID: try row.decode(column: "user_id", as: Int64.self),
                            target: try Self.target(kind, try row.decode(column: "target", as: String.self)),
                            reason: .savedSchedule))
                }
                for row in try await db.select().columns("user_id", "target").from("favorites")
                    .where("kind", .equal, kind).where("target", .in, Array(part)).all()
                {
                    found.append(
                        Follower(
                            userID: try row.decode(column: "user_id", as: Int64.self),
                            target: try Self.target(kind, try row.decode(column: "target", as: String.self)),
                            reason: .favorite))
                }
            }
        }
        return found
    }

    private static func target(_ kind: String, _ key: String) throws -> ChangeTarget {
        switch kind {
        case "group": return .group(key)
        case "teacher": return .teacher(key)
        default:
            guard let id = Int64(key) else { throw StoreError.damaged("room: \"\(key.prefix(40))\" is no id") }
            return .room(id)
        }
    }

    /// The users who like a catalogue entry (`podcast:12`).
    public func likers(of target: String) async throws -> [Int64] {
        try await db.select().column("user_id").from("marks").where("target", .equal, target)
            .where("mark", .equal, "like").orderBy("user_id").all(decodingColumn: "user_id", as: Int64.self)
    }
}
