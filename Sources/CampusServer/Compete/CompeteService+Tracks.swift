import Accounts
import Compete
import Formats
import Foundation
import InputRules
import NIOPosix

/// Results from recorded tracks.
extension CompeteService {
    /// A result from a recorded track (GPX, TCX or FIT, each perhaps gzip-compressed), uploaded by
    /// the organizer (or an admin), or by the participant when the competition allows it.
    func uploadTrack(_ id: Int64, participant: Int64, gpx data: Data, by user: Account) async throws -> Entry {
        let visible = try await visible(id, to: user)
        let competition = visible.competition
        guard visible.canManage || (participant == user.id && competition.participantUploads) else {
            if participant == user.id {
                throw Refusal.notAllowed("This competition takes tracks from its organizer only.")
            }
            throw Refusal.notAllowed(
                "Only the competition's organizer or an admin may upload another participant's track.")
        }
        try Self.requireActiveResults(competition)
        let statistics: TrackStatistics
        let facts: TrackFacts
        let value: Double
        do {
            // Parsing a file of up to 10 MiB is work for NIO's thread pool, not an event loop.
            (statistics, facts) = try await NIOThreadPool.singleton.runIfActive {
                let segments = try ActivityTrack.read(data).segments
                return (TrackStatistics(segments: segments), TrackFacts(segments: segments))
            }
            value = try statistics.result(for: competition.metric)
        } catch let error as GPXError {
            throw Refusal(
                .invalid, phrase: error.phrase, kind: Self.unusableGPX,
                fields: [FieldProblem(field: "gpx", error.phrase)])
        } catch let error as CompeteFieldError {
            throw Refusal(.invalid, phrase: error.phrase, kind: Self.unusableGPX, fields: [error.fieldProblem])
        }
        let stored: Double
        do {
            stored = try CompetitionRules.result(value, for: competition.metric)
        } catch {
            throw Refusal.invalid(FieldProblem(field: "gpx", error.phrase))
        }
        guard competition.kind == .race else {
            // In a challenge a track is one more activity.
            return try await addActivity(
                id, participant: participant, value: stored, at: nil, note: "", source: .track, by: user
            ).1
        }
        let entry = try await store(
            stored, track: statistics, facts: facts, in: competition, participant: participant, correctedBy: user)
        logger.info(
            "track uploaded",
            metadata: ["competition": "\(id)", "participant": "\(participant)", "points": "\(statistics.points)"])
        return entry
    }
}
