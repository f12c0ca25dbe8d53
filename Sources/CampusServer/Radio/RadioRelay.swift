import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A relay of a broadcast whose source another instance holds, as an Icecast relay is: one
/// connection to that instance's stream, whose audio this instance's listeners share.
final class RadioRelay: Sendable {
    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    /// Starts relaying `url` into the broadcast's feed `token`; when the holder's stream ends (or
    /// cannot be had), so does the broadcast here.
    static func start(from url: String, into broadcast: Broadcast, token: Int, logger: Logger) -> RadioRelay {
        let relay = RadioRelay()
        let task = Task {
            do {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "User-Agent", value: "Campus radio relay")
                // The stream lasts as long as the broadcast: no deadline but the holder's end (or
                // LiveRadio stopping the relay when the holder is gone).
                let response = try await HTTPClient.shared.execute(request, deadline: .distantFuture)
                guard response.status == .ok else {
                    logger.warning(
                        "a radio relay was refused", metadata: ["url": "\(url)", "status": "\(response.status.code)"])
                    throw CancellationError()
                }
                logger.notice("relaying a broadcast", metadata: ["url": "\(url)"])
                for try await chunk in response.body {
                    guard broadcast.feedToken == token else { return }
                    broadcast.deliver(chunk, token: token)
                }
            } catch {
                if !(error is CancellationError) {
                    logger.warning(
                        "a radio relay ended", metadata: ["url": "\(url)", "error": "\(ErrorLog.text(error))"])
                }
            }
            if broadcast.feedToken == token, broadcast.feed == .relay { broadcast.finish() }
        }
        relay.task.withLockedValue { $0 = task }
        return relay
    }

    func stop() {
        task.withLockedValue { $0 }?.cancel()
    }
}
