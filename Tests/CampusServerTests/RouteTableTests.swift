import CampusHTTP
import Foundation
import Hummingbird
import Testing
import Timetable

@testable import CampusServer

/// What openapi.yaml declares about routes and what the Swift code relies on must agree: renaming a
/// path or changing a limit in one place and not the other fails here, not silently in production.
@Suite struct RouteTableTests {
    let documentation: APIDocumentation

    init() throws { documentation = try APIDocumentation.bundled() }

    private var paths: Set<String> {
        Set(documentation.routeProperties.keys.compactMap { $0.split(separator: " ").last.map(String.init) })
    }

    @Test func everyAPIRouteThePagesLinkToIsInTheDocument() {
        for pattern in APIRoutes.all {
            #expect(paths.contains(pattern), "APIRoutes has \(pattern), which openapi.yaml does not")
        }
    }

    @Test func theFastPathsAreTheOperationsThatAnswerThem() throws {
        let declared = documentation.routeProperties.compactMapValues(\.fastPath)
        #expect(
            declared == [
                "GET /api/v1/competitions/{competitionId}/ranking": RankingPageFastPath.name,
                "GET /api/v1/competitions/{competitionId}/records": RecordsFastPath.name,
                "GET /api/v1/media/{mediaId}/stream": MediaStreamFastPath.name,
                "GET /api/v1/groups/{name}/schedule": ScheduleFastPath.name,
                "GET /api/v1/teachers/{urlId}/schedule": ScheduleFastPath.name,
                "GET /api/v1/rooms/{roomId}/schedule": ScheduleFastPath.name,
            ])
        // One registry: a name given twice stops the start.
        struct Twice: FastOperation {
            static let name = FastOperationName.schedule
            func answer(_ request: Request, context: CampusRequestContext) async throws -> Response? { nil }
        }
        #expect(throws: FastPaths.Duplicate.self) { try FastPaths([Twice(), Twice()]) }
        // A route whose fast operation is not registered stops the start too.
        #expect(throws: FastPaths.Unknown.self) { try FastPaths([Twice()]).check(documentation.routeProperties) }
        #expect(throws: Never.self) {
            try FastPaths([Twice()]).check(documentation.routeProperties.filter { $0.value.fastPath == .schedule })
        }
    }

    @Test func bodyLimitsInTheDocumentAreTheServersLimits() {
        let limits = documentation.routeProperties.filter { $0.value.bodyLimit != RouteProperties.defaultBodyLimit }
            .mapValues(\.bodyLimit)
        #expect(
            limits == [
                "PUT /api/v1/me/avatar": BodyLimits.avatar,
                "PUT /api/v1/stations/{mount}/image": BodyLimits.stationImage,
                "POST /api/v1/library/images": BodyLimits.libraryImage,
                "POST /api/v1/competitions/{competitionId}/participants/{userId}/gpx": BodyLimits.gpx,
                "POST /api/v1/library/uploads": LibraryService.uploadLimit,
                "POST /api/v1/me/tasks/{taskId}/images": StudyTask.imageSize,
            ])
    }

    @Test func timetableAnswersAreTheCachedOnes() {
        let cached = documentation.routeProperties.filter(\.value.cached).keys
        #expect(!cached.isEmpty)
        for route in cached {
            #expect(route.hasPrefix("GET "), "\(route) is cached but is not a GET")
        }
    }

    @Test func linksFillParametersPercentEncoded() {
        #expect(SiteRoutes.group.path("151004") == "/timetable/groups/151004")
        #expect(SiteRoutes.teacher.path("i-ivanov a/b") == "/timetable/teachers/i-ivanov%20a%2Fb")
        #expect(SiteRoutes.participantResult.path(3, 7) == "/compete/3/participants/7/result")
        #expect(SiteRoutes.login.path(query: [("next", "/a?b=c&d")]) == "/login?next=/a%3Fb%3Dc%26d")
        #expect(SiteRoutes.newCompetition.path(query: [("from", nil)]) == "/compete/new")
    }
}
