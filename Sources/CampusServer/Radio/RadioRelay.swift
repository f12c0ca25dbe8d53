import AsyncHTTPClient
import Foundation
import Logging
import NIOConcurrencyHelpers
import NIOCore

/// A relay of a broadcast whose source another instance holds, as an Icecast relay is: one
/// connection to that instance's stream, whose audio this instance's listeners share.
final class RadioRelay: Sendable {
    /// How a relay introduces itself to the holder (which does not count it as a listener).
    static let userAgent = "Campus radio relay"

    private let task: NIOLockedValueBox<Task<Void, Never>?> = .init(nil)

    /// How a relay ended by itself (not stopped).
    enum Ending: Sendable, Equatable {
        /// The holder answered, but not with its stream: the station is not on the air there.
        case refused
        /// The stream ended or could not be had: the holder ended the broadcast, or it is lost.
        case cut
    }

    /// Starts relaying `url` into the broadcast's feed `token`; `ended` is told when the stream
    /// ends by itself while it still feeds the broadcast (LiveRadio decides what the listeners
    /// hear next).
    static func start(
        from url: String, into broadcast: Broadcast, token: Int, logger: Logger,
        ended: @escaping @Sendable (Ending) -> Void
    ) -> RadioRelay {
        let relay = RadioRelay()
        let task = Task {
            var ending = Ending.cut
            do {
                var request = HTTPClientRequest(url: url)
                request.headers.add(name: "User-Agent", value: Self.userAgent)
                // The stream lasts as long as the broadcast: no deadline but the holder's end (or
                // LiveRadio stopping the relay when the holder is gone).
                let response = try await HTTPClient.shared.execute(request, deadline: .distantFuture)
                if response.status == .ok {
                    logger.notice("relaying a broadcast", metadata: ["url": "\(url)"])
                    for try await chunk in response.body {
                        guard broadcast.feedToken == token else { return }
                        broadcast.deliver(chunk, token: token)
                    }
                } else {
                    logger.warning(
                        "a radio relay was refused", metadata: ["url": "\(url)", "status": "\(response.status.code)"])
                    ending = .refused
                }
            } catch {
                if !Task.isCancelled {
                    logger.warning(
                        "a radio relay ended", metadata: ["url": "\(url)", "error": "\(ErrorLog.text(error))"])
                }
            }
            if !Task.isCancelled, broadcast.feedToken == token, broadcast.feed == .relay { ended(ending) }
        }
        relay.task.withLockedValue { $0 = task }
        return relay
    }

    func stop() {
        task.withLockedValue { $0 }?.cancel()
    }
}
