import Compete
import NIOConcurrencyHelpers
import Storage

/// The records of a competition and of its series (`GET …/records`), made from the rankings
/// `Leaderboards` keeps: each run's best results are the first places of its ranking. Which
/// competitions a series holds is read again at most once a second, as the rankings' versions
/// are; the records are made, and written as JSON, again only when one of the runs' rankings
/// changed.
final class SeriesRecords: Sendable {
    struct Answer: Sendable {
        var competition: Record?
        var series: Record?
        var runs: Int
    }

    private struct Kept {
        var runs: [Int64]
        var checked: ContinuousClock.Instant
        /// The first places of each run's ranking, with the version they were read at.
        var firsts: [Int64: (version: Int64, results: [ResultRecord])] = [:]
        /// Each competition's answer as JSON, with the runs' versions it was made of.
        var encoded: [Int64: (versions: String, json: [UInt8])] = [:]
    }

    /// Series kept at most; past it, the memory starts over.
    static let capacity = 1024
    private let kept = NIOLockedValueBox<[Int64: Kept]>([:])
    let database: Database
    let leaderboards: Leaderboards

    init(database: Database, leaderboards: Leaderboards) {
        self.database = database
        self.leaderboards = leaderboards
    }

    func records(of competition: Competition) async throws -> Answer {
        try await made(for: competition).answer
    }

    /// The answer as `encode` writes it, made again only when a run's ranking changed, and a tag
    /// that changes with it (for `ETag`).
    func json(of competition: Competition, encode: (Answer) -> [UInt8]) async throws -> (tag: String, json: [UInt8]) {
        let (answer, versions) = try await made(for: competition)
        if let kept = kept.withLockedValue({ $0[competition.seriesID]?.encoded[competition.id] }),
            kept.versions == versions
        {
            return (versions, kept.json)
        }
        let json = encode(answer)
        kept.withLockedValue { $0[competition.seriesID]?.encoded[competition.id] = (versions, json) }
        return (versions, json)
    }

    /// The answer, and the versions of the runs' rankings it was made of ("id.version-…").
    private func made(for competition: Competition) async throws -> (answer: Answer, versions: String) {
        let seriesID = competition.seriesID
        let now = ContinuousClock.now
        var series = kept.withLockedValue { $0[seriesID] }
        if series == nil || now - (series?.checked ?? now) >= Leaderboards.recheckInterval {
            let runs = try await database.read { db in try await CompeteStore(db).competitionIDs(seriesID: seriesID) }
            series = Kept(runs: runs, checked: now, firsts: series?.firsts ?? [:], encoded: series?.encoded ?? [:])
        }
        guard var series else { return (Answer(runs: 0), "") }
        var results: [ResultRecord] = []
        var firsts: [Int64: (version: Int64, results: [ResultRecord])] = [:]
        var versions: [String] = []
        for id in series.runs {
            guard let snapshot = try await leaderboards.snapshot(id) else { continue }
            if let known = series.firsts[id], known.version == snapshot.version {
                firsts[id] = known
            } else {
                firsts[id] = (snapshot.version, Self.firstPlaces(of: snapshot))
            }
            versions.append("\(id).\(snapshot.version)")
            results += firsts[id]?.results ?? []
        }
        series.firsts = firsts
        kept.withLockedValue { kept in
            if kept.count >= Self.capacity, kept[seriesID] == nil { kept.removeAll() }
            kept[seriesID] = series
        }
        let answer = Answer(
            competition: Records.best(results.filter { $0.competitionID == competition.id }),
            series: Records.bySeries(results)[seriesID],
            runs: Set(results.map(\.competitionID)).count)
        return (answer, versions.joined(separator: "-"))
    }

    private static func firstPlaces(of snapshot: Leaderboards.Snapshot) -> [ResultRecord] {
        var results: [ResultRecord] = []
        for item in snapshot.ranked {
            guard item.rank == 1, let result = ResultRecord(item.entry, in: snapshot.competition) else { break }
            results.append(result)
        }
        return results
    }
}
