import Crypto
import Foundation
import NIOPosix
import SQLKit
import SharedHelpers
import Timetable

/// How an import is written fast: lesson hashes computed on every core, multi-row INSERTs with
/// literals where they are safe, deletes in chunks.
extension TimetableStore {
    func count(_ table: String) async throws -> Int {
        try await db.raw("SELECT COUNT(*) AS n FROM \(unsafeRaw: table)").first(decodingColumn: "n", as: Int.self) ?? 0
    }

    /// Each schedule's lesson identity hashes, in lesson order; computed on every core (on
    /// NIO's thread pool: tasks started from an event loop stay on it).
    static func identityHashes(_ schedules: [ImportedSchedule]) async throws -> [[String]] {
        let width = max(1, ProcessInfo.processInfo.activeProcessorCount)
        let size = max(1, (schedules.count + width - 1) / width)
        return try await withThrowingTaskGroup(of: (Int, [[String]]).self) { group in
            for start in stride(from: 0, to: schedules.count, by: size) {
                let part = schedules[start..<min(start + size, schedules.count)]
                group.addTask {
                    try await NIOThreadPool.singleton.runIfActive { (start, identityHashes(of: part)) }
                }
            }
            var result = [[String]](repeating: [], count: schedules.count)
            for try await (start, hashes) in group {
                for (offset, item) in hashes.enumerated() { result[start + offset] = item }
            }
            return result
        }
    }

    /// Each schedule's lesson identity hashes, in lesson order, computed here.
    public static func identityHashes(of schedules: some Collection<ImportedSchedule>) -> [[String]] {
        schedules.map { $0.lessons.map { hash($0.identity) } }
    }

    static func hash(_ identity: String) -> String {
        SHA256.hash(data: Data(identity.utf8)).prefix(20).hexadecimal
    }

    /// The VALUES of a multi-row INSERT. Integers, booleans and NULL are written as SQL literals
    /// (they cannot carry anything but a number), everything else is bound: fewer binds and
    /// fragments make big imports faster.
    static func values(_ rows: some Sequence<[(any Encodable & Sendable)?]>) -> SQLQueryString {
        var query: SQLQueryString = ""
        var text = ""
        for (rowIndex, row) in rows.enumerated() {
            text += rowIndex == 0 ? "(" : ", ("
            for (index, value) in row.enumerated() {
                if index > 0 { text += ", " }
                if let value {
                    append(value, to: &query, text: &text)
                } else {
                    text += "NULL"
                }
            }
            text += ")"
        }
        query += "\(unsafeRaw: text)"
        return query
    }

    /// Appends a value: an integer or boolean to the SQL text, anything else as a bind after it.
    static func append(_ value: any Encodable & Sendable, to query: inout SQLQueryString, text: inout String) {
        switch value {
        case let number as Int: text += String(number)
        case let number as Int64: text += String(number)
        case let flag as Bool: text += flag ? "TRUE" : "FALSE"
        default:
            query += "\(unsafeRaw: text)\(bind: value)"
            text = ""
        }
    }

    /// A multi-row INSERT, in chunks.
    func insert(
        _ table: String, columns: [String], rows: [[(any Encodable & Sendable)?]], ignoringConflicts: Bool = false,
        conflict: String? = nil
    ) async throws {
        for part in rows.chunked(Self.chunk) {
            var query: SQLQueryString =
                "INSERT INTO \(unsafeRaw: table) (\(unsafeRaw: columns.joined(separator: ", "))) VALUES "
            query += Self.values(part)
            if let conflict {
                query += SQLQueryString(" " + conflict)
            } else if ignoringConflicts {
                query += " ON CONFLICT DO NOTHING"
            }
            try await db.raw(query).run()
        }
    }

    /// A comma-separated list of values, as in `IN (…)`.
    func list<T: Encodable & Sendable>(_ values: [T]) -> SQLQueryString {
        var query: SQLQueryString = ""
        var text = ""
        for (index, value) in values.enumerated() {
            if index > 0 { text += ", " }
            Self.append(value, to: &query, text: &text)
        }
        query += "\(unsafeRaw: text)"
        return query
    }
}
