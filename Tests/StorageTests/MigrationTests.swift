import Accounts
import CampusTestSupport
import Foundation
import SQLKit
import Testing

@testable import Storage

/// Migrations, on SQLite and on PostgreSQL.
@Suite struct MigrationTests {
    @Test(arguments: TestDatabases.kinds)
    func migrationsApplyOnceAndAreRecorded(_ kind: Database.Kind) async throws {
        try await TestDatabases.withDatabase(kind, migrate: false) { database in
            let first = try await database.migrate(logger: TestDatabases.logger)
            #expect(first.map(\.version) == Database.migrations.map(\.version))
            let second = try await database.migrate(logger: TestDatabases.logger)
            #expect(second.isEmpty)
            #expect(try await database.appliedMigrations().map(\.version) == Database.migrations.map(\.version))
        }
    }

    @Test(arguments: TestDatabases.kinds)
    func concurrentStartsMigrateOnce(_ kind: Database.Kind) async throws {
        let (location, cleanup) = try await TestDatabases.location(kind)
        defer { Task { await cleanup() } }
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<3 {
                group.addTask {
                    let database = try await Database.open(location, logger: TestDatabases.logger)
                    // Closed whatever happens: a pool released unclosed stops the whole test process.
                    do {
                        let applied = try await database.migrate(logger: TestDatabases.logger)
                        await database.close()
                        return applied.count
                    } catch {
                        await database.close()
                        throw error
                    }
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(results.sorted() == [0, 0, Database.migrations.count])
    }

    // MARK: Landed steps never change

    /// The checksum of every step that has landed. A step that changes fails here: a landed step
    /// is never edited, because a database made before the edit would never get it.
    static let landed: [Int: String] = [
        1: "6f5f5fac3a8504124b3ee63e81beffe2004b5e9c8d7522e48d91b14c738a4a25",
        2: "a4685508857a4e51d3204a42dad5c725e7f5647bc8c3063dcc14dbcdb2c1ddc6",
        3: "8ad306af7fa40dba2bfb637a39546ed26c8a9d4270f94694e41b4dc1f8dcc864",
        4: "81ab3eb6a311484e65b7c8f5300a9237bb6ad9495ebcc26692d94851c2cbb1de",
        5: "dee153a689d1dc480da86b836d2eeeaad43e5fd80927ede00077ee547b271d33",
        6: "3fefc547d14a23c39ea41838f00f8c5f330c466e51a8fdae85f694c5daf9e53e",
        7: "ed84d3ce074e2918a0c683a683fc0b386ee6cfc2f10d1741299c38beb2142c66",
        8: "987539fbcdad71db8370b9c9c9c383f62f98aee73680b0319ec24a4ddf0652c0",
        9: "cdcd7b22e8a6dbb270acc3ceb541fc10d4f94419760f6f3f634a4849a13f7b89",
        10: "a5fd97571f6b28b4e0b3dcc19a33a90de7360781104530c640cacff75a16199a",
        11: "671d612ec54b0f608d3aec1cec046c9de6a82295f80993e120206b2f203501c6",
        12: "60a2932c92a32376d347b8487a16c28ef99098a31b086b00dbc28d68e5d97859",
        13: "d9f848fd9a9c5a03bfbef1ed30cf3c447cbb05eadaafdeeb1fae7862ccad3f4c",
        14: "8c693e34e159cb9c1df4ca5bdfb0c898df534dceedf1f38c4ceab8c3a05c6a1d",
        15: "01c9443d2c5359b1b41a7b287f4c7730565518943a56139ee47041a3182e2300",
        16: "9ef1c59a496db54baa3790f24f5d219979881d313915c116f2b9ad46c4e84d49",
        17: "5dcbebfce8d39fb65fbbc5e2b8f87d8b0057de2215a715d07a7b1b7c028fb41a",
        18: "10b19a7ffce1d3e204adfdab77abda1004308b7c8549eb0a1803fe84e92aaf81",
        19: "b3fa557b29fb1447532d9d041d760d75c515411aeca0388284f39875e6d9b5c7",
        20: "d662c3b184e920471a8749724afe05014c265679c04081fe781997277367041d",
        21: "0e420efd015e351c64d5fd0082c27ab489871ad6e73cf224dc37324bc6c9b755",
        22: "b14a390d72a9121ed3fbcb94f1e14b03e0c02cf17d2a2ee2cf55a6bf8be48d63",
        23: "eecab4dd7069bde82b4e7df926df191eb7bc6357b8d0a8fe5759525c550e9025",
        24: "a9cfe81a47d531c38d48e232bf44baab339004f524ab12020fd24f681b49c5e4",
        25: "9fc5c58f4bc045afb736bb461fb775401c441bd4cee624a01f85fc0eb8f94f76",
        26: "e5a63a84cb291aecf16f1f016c2b7fcec33f1ef3a3138d0c396a803295ab4be2",
        27: "8872c727483ded6a22ce85ff0ca1d9f2a9e422b28c9d1b4e3960b46fc8c63141",
        28: "55fddc677d191cf3727616298802076b289615f75bb81da76d749a470b944d09",
        29: "0be718fa5293913ece03729e1b1d0642e7ec2351716f0503519b34812559ea60",
        30: "4e091ade8745f591e1c5aa52001a03f9b4036f136f17d7414d1267bbb27ef01c",
        31: "ff2abb04f7a153e2507ca283f4e2a5696cd53238b663248563844c66b84666a0",
        32: "c694c767a99e025289a0fd1a9cc70037bb676804b5abc94bfd5b647df798d7e3",
        33: "0045872def1f643394f859e32aa34fe11ee9101cdc11e2430cb6d3ada43cb777",
        34: "3897476c3512f6ddaeedc640ff443d79624c227394f365c5c95700e461f293db",
        35: "9560dd791a1aa3eaacefcbcd5e05c8d2f4d8be9b3d31a8cddd676a8dd8d79830",
        36: "58e899cbc5bb47edb421f8aa8c7516c3840f7b01e9cd2781b10bacfff951de0a",
        37: "9a329d61faea17922b91dc066ab14dc65d068e1231d41e018b71ad400b38ac48",
        38: "41de3d598aa2ed5ed54b304968e6ebd780e4c9ddd324042702ce48687441972c",
        39: "c1ab884df93a9da86d51955cd7d51e13c3de0be2a4a42ab18c61a35d32fe0894",
        40: "18cc9135664b894128e5cecb0b2f42ea5743d6cb2f330c78d1d1c049b90d7b75",
        41: "cb4c6478de94f47f4b683cf4a0f40b8392f7f8272b3901b4f614fb966a82f6bf",
        42: "e83472d9a765bcfb6fac1b2fe2cbf39ccaa8a6bd1163ee87cb9a7f8a0a00f556",
        43: "6607ebfc57841e425d10b4aa26db06f78a680372184c5cfd06868d31b6cf68b6",
        44: "08c1c6811d65e8d5e4344ce306839cb96a1f63c22cf4adc4f0f6a31f3978e485",
        45: "56babee66faa79c0ca7626bdfbbb8ce58bd7f85aaa44c0a66fba50fa0d1211ad",
        46: "77172245ccfaa3086ddc7ce65064700ac303c58dbe5e946425ee05c11a2a678c",
        47: "eb7a9de8b339c91a09c47a52afd6b9a43f7b3f9bb6cdc6c2f15a8da985aac5a9",
        48: "b2738f86951eebe7a233782df2854e8673f318b3bb6dd1d629e50ef4523d5e1b",
        49: "cb3abf38fbad76de024d171da1991fe7e2301dedebd869dba722cc3c0b6d2b17",
    ]

    @Test func landedStepsNeverChange() {
        for step in Database.migrations {
            guard let pinned = Self.landed[step.version] else {
                Issue.record(
                    """
                    Step \(step.version) (\(step.name)) has no pinned checksum: add \(step.version): "\(step.checksum)" \
                    to MigrationTests.landed in the commit that adds the step.
                    """)
                continue
            }
            #expect(
                step.checksum == pinned,
                """
                Step \(step.version) (\(step.name)) has changed since it landed. A landed step is never edited: \
                databases made before the edit would never get the change. Undo it, and put the change in a \
                new step (a new file in Sources/Storage/Migrations, appended to Database.migrations). \
                (Pinned \(pinned), now \(step.checksum).)
                """)
        }
        #expect(
            Database.migrations.map(\.version) == Array(1...Database.migrations.count), "Steps are numbered 1, 2, 3 …")
    }

    // MARK: Databases made at earlier commits

    /// The steps as they were at a commit, read from `Fixtures/migrations-at-COMMIT.json`
    /// (extracted from that commit's Sources/Storage/Migrations.swift).
    struct History: Decodable {
        struct Step: Decodable {
            var version: Int
            var name: String
            var statements: [String]
        }

        var commit: String
        var steps: [Step]

        static func at(_ commit: String) throws -> History {
            let url = try #require(
                Bundle.module.url(
                    forResource: "migrations-at-\(commit)", withExtension: "json", subdirectory: "Fixtures"))
            return try JSONDecoder().decode(History.self, from: Data(contentsOf: url))
        }

        var migrations: [Migration] {
            steps.map { Migration(version: $0.version, name: $0.name, statements: $0.statements) }
        }
    }

    @Test func theEditedStepsAreBackAsTheyLanded() throws {
        // Step 3 as it landed in 1814a89 (before its index was added), step 4 as it landed in
        // 60c5f47 (before its column was added), steps 1 and 2 as they have always been.
        let first = try History.at("1814a89").migrations
        let second = try History.at("60c5f47").migrations
        for step in first {
            #expect(step.checksum == Database.migrations[step.version - 1].checksum, "step \(step.version)")
        }
        #expect(second[3].checksum == Database.migrations[3].checksum)
    }

    /// A database made at 1814a89 (steps 1–3, without the ranking index), at 60c5f47 (steps 1–4,
    /// without the feed links) and at d4e7027 (the edited steps 3 and 4: index and column both
    /// there) reaches, migrated now, the schema a new database has.
    @Test(arguments: TestDatabases.kinds, ["1814a89", "60c5f47", "d4e7027"])
    func databasesMadeAtEarlierCommitsReachTheSameSchema(_ kind: Database.Kind, _ commit: String) async throws {
        let fresh = try await TestDatabases.withDatabase(kind) { database in try await Self.schema(of: database) }
        #expect(fresh.contains("index entries_result on entries (competition_id, result)"))
        #expect(fresh.contains { $0.hasPrefix("column feed_blocks.link ") })
        let history = try History.at(commit)
        try await TestDatabases.withDatabase(kind, migrate: false) { database in
            try await database.migrate(history.migrations, logger: TestDatabases.logger)
            let applied = try await database.migrate(logger: TestDatabases.logger)
            #expect(applied.map(\.version) == Array(history.steps.count + 1...Database.migrations.count))
            let migrated = try await Self.schema(of: database)
            #expect(
                migrated.subtracting(fresh).isEmpty,
                "only in the database made at \(commit): \(migrated.subtracting(fresh))")
            #expect(
                fresh.subtracting(migrated).isEmpty,
                "missing in the database made at \(commit): \(fresh.subtracting(migrated))")
        }
    }

    /// The schema as lines: every column (type, nullability, default), every index (its
    /// columns, unique or not) and every foreign key. Column order is left out: a column added
    /// later comes last.
    static func schema(of database: Database) async throws -> Set<String> {
        try await database.read { db in
            var lines: Set<String> = []
            switch database.kind {
            case .sqlite:
                let tables = try await db.raw(
                    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
                ).all(decodingColumn: "name", as: String.self)
                for table in tables {
                    for row in try await db.raw("SELECT * FROM pragma_table_info(\(bind: table))").all() {
                        let name = try row.decode(column: "name", as: String.self)
                        let type = try row.decode(column: "type", as: String.self)
                        let notNull = try row.decode(column: "notnull", as: Int.self)
                        let primary = try row.decode(column: "pk", as: Int.self)
                        let defaultValue = try row.decode(column: "dflt_value", as: String?.self) ?? "-"
                        lines.insert(
                            "column \(table).\(name) \(type.lowercased()) null=\(notNull == 0) pk=\(primary) default=\(defaultValue)"
                        )
                    }
                    for row in try await db.raw("SELECT * FROM pragma_index_list(\(bind: table))").all() {
                        let index = try row.decode(column: "name", as: String.self)
                        guard !index.hasPrefix("sqlite_autoindex") else { continue }
                        let unique = try row.decode(column: "unique", as: Int.self) == 1
                        let columns = try await db.raw(
                            "SELECT name FROM pragma_index_info(\(bind: index)) ORDER BY seqno"
                        )
                        .all(decodingColumn: "name", as: String.self)
                        lines.insert(
                            "\(unique ? "unique " : "")index \(index) on \(table) (\(columns.joined(separator: ", ")))")
                    }
                    for row in try await db.raw("SELECT * FROM pragma_foreign_key_list(\(bind: table))").all() {
                        let from = try row.decode(column: "from", as: String.self)
                        let target = try row.decode(column: "table", as: String.self)
                        let to = try row.decode(column: "to", as: String?.self) ?? "-"
                        let onDelete = try row.decode(column: "on_delete", as: String.self)
                        lines.insert(
                            "foreign key \(table).\(from) -> \(target).\(to) on delete \(onDelete.lowercased())")
                    }
                }
            case .postgres:
                for row in try await db.raw(
                    """
                    SELECT table_name, column_name, data_type, is_nullable, COALESCE(column_default, '-') AS fallback,
                           is_identity
                    FROM information_schema.columns WHERE table_schema = current_schema()
                    """
                ).all() {
                    let table = try row.decode(column: "table_name", as: String.self)
                    let name = try row.decode(column: "column_name", as: String.self)
                    let type = try row.decode(column: "data_type", as: String.self)
                    let nullable = try row.decode(column: "is_nullable", as: String.self)
                    let fallback = try row.decode(column: "fallback", as: String.self)
                    let identity = try row.decode(column: "is_identity", as: String.self)
                    lines.insert(
                        "column \(table).\(name) \(type) null=\(nullable == "YES") identity=\(identity) default=\(fallback)"
                    )
                }
                for row in try await db.raw(
                    """
                    SELECT c.relname AS index_name, t.relname AS table_name, i.indisunique AS is_unique,
                           pg_get_indexdef(i.indexrelid) AS definition
                    FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_class t ON t.oid = i.indrelid
                    JOIN pg_namespace n ON n.oid = t.relnamespace
                    WHERE n.nspname = current_schema() AND NOT i.indisprimary
                    """
                ).all() {
                    let index = try row.decode(column: "index_name", as: String.self)
                    let table = try row.decode(column: "table_name", as: String.self)
                    let unique = try row.decode(column: "is_unique", as: Bool.self)
                    let definition = try row.decode(column: "definition", as: String.self)
                    let columns = definition.split(separator: "(", maxSplits: 1).last.map { "(" + $0 } ?? definition
                    lines.insert("\(unique ? "unique " : "")index \(index) on \(table) \(columns)")
                }
                for row in try await db.raw(
                    """
                    SELECT conrelid::regclass::text AS table_name, pg_get_constraintdef(oid) AS definition
                    FROM pg_constraint WHERE contype = 'f' AND connamespace = current_schema()::regnamespace
                    """
                ).all() {
                    let table = try row.decode(column: "table_name", as: String.self)
                    lines.insert("foreign key \(table) \(try row.decode(column: "definition", as: String.self))")
                }
            }
            return lines
        }
    }
}
