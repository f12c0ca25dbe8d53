import Foundation
import HTTPInput
import Hummingbird
import InputRules
import Logging
import Metrics
import Mustache
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import OpenAPIRuntime
import Prometheus
import ServiceLifecycle
import Storage
import Timetable

/// Where the web app's templates, static files and translations are, inside the module's
/// resource bundle.
struct Resources {
    var templates: String
    var staticFiles: String
    var translations: String

    struct Missing: Error, CustomStringConvertible {
        var path: String
        var description: String {
            "The web app's files are missing at \(path); reinstall Campus with its resource bundles."
        }
    }

    static func locate() throws -> Resources {
        let root = Bundle.module.bundleURL.appendingPathComponent("Resources")
        let resources = Resources(
            templates: root.appendingPathComponent("templates").path,
            staticFiles: root.appendingPathComponent("static").path,
            translations: root.appendingPathComponent("translations").path)
        guard FileManager.default.fileExists(atPath: resources.templates) else {
            throw Missing(path: resources.templates)
        }
        return resources
    }
}
