import Accounts
import CampusHTTP
import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import SharedHelpers
import Storage

/// The installed app's offline part: its service worker (`/service-worker.js`, from
/// static/service-worker.js with this version's shell written above it), the signed-in
/// visitor's pages the worker keeps for reading offline (`/offline/pages`), and the page it shows
/// offline for a page it did not keep (`/offline`).
struct OfflinePages: Sendable {
    let myTimetable: MyTimetableService

    /// The most open tasks whose pages are kept.
    static let keptTasks = 20

    func register(on pages: PageRouter) {
        pages.resource(SiteRoutes.serviceWorker) { _, _ in
            Response(
                status: .ok,
                headers: [.contentType: "text/javascript; charset=utf-8", .cacheControl: StaticFiles.revalidate],
                body: ResponseBody(byteBuffer: ByteBuffer(string: Self.serviceWorker)))
        }
        let renderer = pages.renderer
        pages.resource(SiteRoutes.offlinePages) { request, _ in
            try await kept(for: try await renderer.visitor(request).user)
        }
        pages.page(SiteRoutes.offline) { _ in .page(OfflinePage()) }
    }

    /// What the worker reads to keep: pages, the pages whose lessons' notes it keeps too, and
    /// schedules with how many weeks after this one (their "next week" links) and their exams.
    struct Kept: Codable {
        struct Schedule: Codable {
            var path: String
            var weeks: Int
            var exams: Bool
        }
        var pages: [String] = []
        var notesFrom: [String] = []
        var schedules: [Schedule] = []
    }

    /// A student's own timetable (this week and the next two, the exams, this week's notes), their
    /// open tasks and their favorites' schedules (this week and the next); nothing for a visitor.
    func kept(for user: Account?) async throws -> Response {
        var kept = Kept()
        if let user {
            let mine = myTimetable
            kept.pages = [
                SiteRoutes.home.path, SiteRoutes.today.path, SiteRoutes.myTimetable.path, SiteRoutes.tasks.path,
                SiteRoutes.listen.path, SiteRoutes.lessonTypeStyles.path, SiteRoutes.myLessonTypeStyles.path,
                SiteRoutes.manifest.path,
            ]
            kept.notesFrom = [SiteRoutes.today.path, SiteRoutes.timetable.path]
            let open = try await mine.tasks(of: user).filter { !$0.done }.prefix(Self.keptTasks)
            kept.pages += open.map { SiteRoutes.task.path($0.id) }
            if (try? await mine.targets(of: user)) != nil {
                kept.schedules.append(.init(path: SiteRoutes.timetable.path, weeks: 2, exams: true))
            }
            for view in try await mine.favorites(of: user, limit: MyTimetablePages.glanceFavorites) {
                kept.schedules.append(.init(path: MyTimetablePages.url(of: view.favorite), weeks: 1, exams: false))
            }
        }
        let body = try JSONEncoder().encode(kept)
        return Response(
            status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: ResponseBody(byteBuffer: ByteBuffer(data: body)))
    }

    /// The worker: its version (a digest of every static file's digest, its own among them, so
    /// that a new version of Campus is a new worker) and its shell (the static files as pages
    /// link them, and the offline page) above static/service-worker.js.
    static let serviceWorker: String = {
        let source =
            (try? Resources.locate().staticFiles).flatMap {
                try? String(contentsOfFile: $0 + "/service-worker.js", encoding: .utf8)
            } ?? ""
        let versions = StaticFiles.versions.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        let version = SHA256.hash(data: Data(versions.joined(separator: "\n").utf8)).prefix(6).hexadecimal
        let shell =
            [
                SiteRoutes.styleSheet, SiteRoutes.script, SiteRoutes.offlineScript, SiteRoutes.playerScript,
                SiteRoutes.softNavigationScript, SiteRoutes.trackingScript, SiteRoutes.icon, SiteRoutes.shareIcon,
            ].map(StaticFiles.link) + [SiteRoutes.offline.path]
        let list = shell.map { "\"\($0)\"" }.joined(separator: ", ")
        return """
            const VERSION = "\(version)";
            const SHELL = [\(list)];
            const OFFLINE_PAGE = "\(SiteRoutes.offline.path)";

            """ + source
    }()
}

/// What the installed app shows offline for a page it did not keep.
struct OfflinePage: PageModel {
    static let template = "offline"
    static let section: SiteSection? = nil
}
