import Foundation
import SQLKit

/// What a backup needs of the database itself; the files and the manifest are the server's
/// (`CampusServer/Backup/`).
extension Database {
    /// SQLite: a consistent copy of the whole database in a new file at `path`, made while the
    /// server goes on reading and writing. `VACUUM INTO` reads in one transaction (WAL lets
    /// writers go on meanwhile) and writes a compact file that needs no `-wal` beside it.
    public func copySQLite(to path: String) async throws {
        guard kind == .sqlite else { throw DatabaseError.unsupportedLocation("VACUUM INTO is SQLite's") }
        try await read { db in try await db.raw("VACUUM INTO \(bind: path)").run() }
    }

    /// The step the database's schema is at (0 for an empty database).
    public func schemaVersion() async throws -> Int {
        guard try await !hasNoTables() else { return 0 }
        return try await appliedMigrations().map(\.version).max() ?? 0
    }

    /// Whether the database holds no tables at all: the only kind a restore writes into.
    public func hasNoTables() async throws -> Bool {
        let kind = kind
        return try await read { db in
            let query: SQLQueryString =
                switch kind {
                case .sqlite: "SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'"
                case .postgres:
                    "SELECT count(*) AS n FROM information_schema.tables WHERE table_schema = current_schema()"
                }
            let count = try await db.raw(query).first()?.decode(column: "n", as: Int.self) ?? 0
            return count == 0
        }
    }

    /// The bytes the database takes on disk: the SQLite file with its `-wal` and `-shm`, or
    /// PostgreSQL's `pg_database_size`.
    public func sizeInBytes() async throws -> Int64 {
        switch location {
        case .sqlite(let path):
            return ["", "-wal", "-shm"].reduce(Int64(0)) { total, suffix in
                let attributes = try? FileManager.default.attributesOfItem(atPath: path + suffix)
                return total + ((attributes?[.size] as? NSNumber)?.int64Value ?? 0)
            }
        case .postgres:
            return try await read { db in
                try await db.raw("SELECT pg_database_size(current_database()) AS n").first(
                    decodingColumn: "n", as: Int64.self) ?? 0
            }
        }
    }
}
