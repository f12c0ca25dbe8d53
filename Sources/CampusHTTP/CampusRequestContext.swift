import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The context of each request: Hummingbird's core storage, the peer's address, and what the
/// route table says about the route the router matched.
public struct CampusRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    /// The connection the request came on (a live source's is handed over to its station).
    public let channel: any Channel
    /// The matched route's properties, set by ``RouteLookupMiddleware``; nil for paths no route has.
    public var route: RouteProperties?
    /// The largest body this request may have; set by ``BodyLimitMiddleware`` from the route.
    public var bodyLimit: Int = RouteProperties.defaultBodyLimit

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
        channel = source.channel
    }

    public var maxUploadSize: Int { bodyLimit }
}

/// Cookie names used by the web app.
public enum CookieName {
    public static let session = "campus_session"
    public static let csrf = "campus_csrf"
}
