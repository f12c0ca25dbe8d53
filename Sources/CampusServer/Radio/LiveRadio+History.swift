import Accounts
import Foundation
import Listen
import Storage

/// Listening to a station, kept in the listener's history as a radio event: written when the
/// stream starts, its length when it ends.
extension LiveRadio {
    /// Starts a radio event for a signed-in listener; its id, or nil when it cannot be written
    /// (the listener hears the station all the same).
    func startListening(_ station: Station, by user: Account) async -> Int64? {
        let now = now()
        do {
            return try await database.write { db in
                try await RadioStore(db).startListening(
                    userID: user.id, stationID: station.id, stationName: station.name, now: now)
            }
        } catch {
            logger.warning(
                "cannot write a radio event",
                metadata: ["mount": "\(station.mount)", "error": "\(ErrorLog.text(error))"])
            return nil
        }
    }

    /// The listener stopped after `seconds`.
    func listened(_ event: Int64, seconds: Int64) {
        perform { [self] in
            _ = try? await database.write { db in try await RadioStore(db).listened(event, seconds: seconds) }
        }
    }
}
