import CampusHTTP
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import SharedHelpers

/// The web app's static files, linked with their content's digest (`/static/campus.css?v=…`):
/// an answer to a link with the file's current digest never changes, so browsers keep it a year
/// without asking (`immutable`); a new version of Campus links new digests, so it reaches an
/// installed app on the next visit. Without the digest (or with an old one) the browser asks
/// each time (`no-cache`, the file's ETag answers 304).
enum StaticFiles {
    /// Each file's digest (the first 12 hexadecimal digits of its SHA-256), by file name, read once.
    static let versions: [String: String] = {
        guard let folder = try? Resources.locate().staticFiles,
            let names = try? FileManager.default.contentsOfDirectory(atPath: folder)
        else { return [:] }
        var versions: [String: String] = [:]
        for name in names {
            guard let data = FileManager.default.contents(atPath: folder + "/" + name) else { continue }
            versions[name] = SHA256.hash(data: data).prefix(6).hexadecimal
        }
        return versions
    }()

    /// The link to a static file's route, with its digest.
    static func link(_ route: Route<Void>) -> String {
        let path = route.path
        guard let name = path.split(separator: "/").last, let version = versions[String(name)] else { return path }
        return path + "?v=" + version
    }

    static let immutable = "public, max-age=31536000, immutable"
    static let revalidate = "no-cache"
}

/// Says how long a static file may be kept (``StaticFiles``): FileMiddleware answers inside it.
struct StaticFileCacheMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response)
        async throws -> Response
    {
        var response = try await next(request, context)
        guard response.status == .ok || response.status == .notModified else { return response }
        let name = request.uri.path.split(separator: "/").last.map(String.init)
        let current = name.flatMap { StaticFiles.versions[$0] }
        let asked = request.uri.queryParameters.get("v")
        response.headers[.cacheControl] =
            current != nil && asked == current ? StaticFiles.immutable : StaticFiles.revalidate
        return response
    }
}
