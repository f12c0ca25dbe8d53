import Accounts
import Foundation
import Storage

/// System methods: ping, licence, OpenSubsonic's extensions, the signed-in user.
struct SubsonicSystem: Sendable {

    /// The OpenSubsonic extensions Campus supports, with their versions.
    static let extensions: [(String, [Int])] = [
        ("apiKeyAuthentication", [1]), ("formPost", [1]), ("transcodeOffset", [1]),
    ]

    var handlers: KeyValuePairs<String, SubsonicRoutes.Handler> {
        [
            "ping": { _ in .empty },
            "getLicense": { _ in
                var node = SubsonicNode()
                node.set("valid", true)
                return .answer("license", node)
            },
            "getOpenSubsonicExtensions": { _ in
                .list(
                    "openSubsonicExtensions",
                    Self.extensions.map { name, versions in
                        var entry = SubsonicNode()
                        entry.set("name", name)
                        entry.add("versions", values: versions.map { .int(Int64($0)) })
                        return entry
                    })
            },
            "getMusicFolders": { _ in
                var node = SubsonicNode()
                node.add(
                    "musicFolder",
                    list: SubsonicFolder.allCases.map { folder in
                        var entry = SubsonicNode()
                        entry.set("id", folder.rawValue)
                        entry.set("name", folder.name)
                        return entry
                    })
                return .answer("musicFolders", node)
            },
            "getUser": { call in
                let user = try call.user
                let name = call.value("username") ?? user.email
                guard name.lowercased() == user.email.lowercased() else {
                    throw SubsonicError(.notAuthorized, "A player may only see its own user.")
                }
                return .answer("user", Self.user(user))
            },
        ]
    }

    static func user(_ user: Account) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("username", user.email)
        node.set("email", user.email)
        node.set("scrobblingEnabled", true)
        node.set("adminRole", user.role == .admin)
        node.set("settingsRole", false)
        node.set("downloadRole", true)
        node.set("uploadRole", false)
        node.set("playlistRole", true)
        node.set("coverArtRole", false)
        node.set("commentRole", false)
        node.set("podcastRole", false)
        node.set("streamRole", true)
        node.set("jukeboxRole", false)
        node.set("shareRole", false)
        node.set("videoConversionRole", false)
        node.add("folder", values: SubsonicFolder.allCases.map { .int(Int64($0.rawValue)) })
        return node
    }
}
