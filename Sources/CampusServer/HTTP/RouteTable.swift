import Accounts
import Compete
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import InputRules
import NIOConcurrencyHelpers
import OpenAPIHummingbird
import OpenAPIRuntime
import Storage

/// The paths and methods the server answers, to tell "no such path" (404) from "not with this
/// method" (405, with `Allow`).
final class RouteTable: Sendable {
    private let routes: NIOLockedValueBox<[(segments: [Substring], method: HTTPRequest.Method)]> = .init([])

    /// Records a route; path parameters are written `:name` or `{name}`.
    func add(_ path: String, method: HTTPRequest.Method) {
        let segments = path.split(separator: "/")
        routes.withLockedValue { $0.append((segments, method)) }
    }

    func methods(forPath path: String) -> Set<HTTPRequest.Method> {
        let parts = path.split(separator: "/")
        return routes.withLockedValue { routes in
            var methods = Set<HTTPRequest.Method>()
            for route in routes where route.segments.count == parts.count {
                let matches = zip(route.segments, parts).allSatisfy { pattern, part in
                    pattern == part || pattern.hasPrefix(":") || pattern.hasPrefix("{") || pattern == "*"
                }
                if matches {
                    methods.insert(route.method)
                    if route.method == .get { methods.insert(.head) }
                }
            }
            return methods
        }
    }
}
