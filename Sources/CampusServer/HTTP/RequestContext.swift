import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The context of each request: Hummingbird's core storage plus the peer's address.
struct CampusRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    let remoteAddress: SocketAddress?
    /// The largest body this request may have; set by ``BodyLimitMiddleware``.
    var bodyLimit: Int = BodyLimits.json

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    var maxUploadSize: Int { bodyLimit }
}

/// Cookie names used by the web app.
enum CookieName {
    static let session = "campus_session"
    static let csrf = "campus_csrf"
}

/// Request body limits by kind of request.
enum BodyLimits {
    /// JSON and form bodies.
    static let json = 1 << 20
    /// Avatar images.
    static let avatar = 2 << 20
    /// A multipart form carrying an avatar, with room for the form's other fields.
    static let avatarForm = (2 << 20) + (64 << 10)
    /// GPX tracks.
    static let gpx = 10 << 20
    /// A multipart form carrying a GPX track.
    static let gpxForm = (10 << 20) + (64 << 10)
}
