import Accounts
import NIOConcurrencyHelpers
import ServiceLifecycle
import Storage

/// Signed-in sessions and their accounts kept in memory, so that checking a request's session
/// reads no database. A change to an account or a session (logout, password, role, profile,
/// avatar, deletion) makes this instance forget it at once (`AccountService` tells it), and every
/// other instance and process soon after: `Database.followAccountChanges` (PostgreSQL
/// `NOTIFY`, within milliseconds; with SQLite, where the CLI is another process, a counter polled every 50 ms).
/// While changes cannot be heard, nothing is kept and every check reads the database.
final class SessionMemory: Service, Sendable {
    /// At most this many sessions are kept (about 600 bytes each); past it, the memory starts over.
    static let capacity = 20_000

    private struct State {
        var entries: [String: Authenticated] = [:]
        /// Players' sign-ins (``PlayerAccount``), by API key hash or account.
        var players: [String: PlayerAccount] = [:]
        var generation: UInt64 = 0
        var following = false
    }
    private let state = NIOLockedValueBox(State())
    let database: Database

    init(database: Database) {
        self.database = database
    }

    /// The kept session of this token hash, if changes are being heard.
    func find(tokenHash: String) -> Authenticated? {
        state.withLockedValue { $0.following ? $0.entries[tokenHash] : nil }
    }

    /// A mark to give `keep` with what the database answers after it: if anything was forgotten
    /// in between, the answer may be older than the change and is not kept. Nil while changes
    /// cannot be heard.
    func mark() -> UInt64? {
        state.withLockedValue { $0.following ? $0.generation : nil }
    }

    func keep(_ account: Authenticated, tokenHash: String, mark: UInt64?) {
        guard let mark else { return }
        state.withLockedValue { state in
            guard state.following, state.generation == mark else { return }
            if state.entries.count >= Self.capacity, state.entries[tokenHash] == nil {
                state.entries.removeAll(keepingCapacity: true)
            }
            state.entries[tokenHash] = account
        }
    }

    /// The kept player sign-in under `key`, if changes are being heard.
    func findPlayer(_ key: String) -> PlayerAccount? {
        state.withLockedValue { $0.following ? $0.players[key] : nil }
    }

    func keepPlayer(_ account: PlayerAccount, key: String, mark: UInt64?) {
        guard let mark else { return }
        state.withLockedValue { state in
            guard state.following, state.generation == mark else { return }
            if state.players.count >= Self.capacity, state.players[key] == nil {
                state.players.removeAll(keepingCapacity: true)
            }
            state.players[key] = account
        }
    }

    /// Forgets what `change` changed.
    func forget(_ change: AccountChange) {
        state.withLockedValue { state in
            state.generation &+= 1
            switch change {
            case .session(let tokenHash):
                state.entries[tokenHash] = nil
            case .user(let id):
                state.entries = state.entries.filter { $0.value.user.id != id }
                state.players = state.players.filter { $0.value.user.id != id }
            }
        }
    }

    func hear(_ event: AccountChangeEvent) {
        switch event {
        case .changed(let change):
            forget(change)
        case .following, .somethingChanged, .lost:
            state.withLockedValue { state in
                state.generation &+= 1
                state.entries.removeAll()
                state.players.removeAll()
                state.following = event != .lost
            }
        }
    }

    var count: Int { state.withLockedValue { $0.entries.count } }

    /// What an account's player signs in with, kept so that a Subsonic request reads no
    /// database: the account, and its app passwords (opened) for the `u` sign-ins.
    struct PlayerAccount: Sendable {
        var user: Account
        var passwords: [(id: Int64, secret: String)] = []
    }

    func run() async throws {
        try? await cancelWhenGracefulShutdown { [database] in
            await database.followAccountChanges { [weak self] event in self?.hear(event) }
        }
    }
}
