import CampusTestSupport
import Compete
import Foundation
import Testing

@testable import Formats

@Suite struct GPXTests {
    /// gpxpy 1.6.2's `length_2d()` of each fixture (metres), and the first and last point time
    /// gpxpy read. The end-to-end tests compute the same with gpxpy itself.
    static let oracle: [(file: String, length2D: Double, elapsed: Double?)] = [
        ("Mojstrovka.gpx", 2700.646447411652, nil),  // all 184 points within one second
        ("around-visnjan-with-car.gpx", 2736.299816059205, 514),
        ("cerknicko-jezero.gpx", 4580.1370099275755, 7190),
        ("cerknicko-without-times.gpx", 4580.1370099275755, 57),
        ("korita-zbevnica.gpx", 14913.748355843027, 13381),
        ("track-with-empty-segment.gpx", 85.94933348340511, 76),
    ]

    @Test(arguments: oracle.map(\.file))
    func distancesAgreeWithGpxpy(_ file: String) throws {
        let expected = Self.oracle.first { $0.file == file }!
        let gpx = try GPX.read(try Fixtures.data("gpx/\(file)"))
        let stats = gpx.statistics
        #expect(abs(stats.distanceMetres - expected.length2D) / expected.length2D < 0.005)
        if let elapsed = expected.elapsed {
            #expect(abs(stats.elapsedSeconds! - elapsed) < 1)
        }
    }

    @Test func pointsSegmentsAndNames() throws {
        let gpx = try GPX.read(try Fixtures.data("gpx/track-with-empty-segment.gpx"))
        #expect(gpx.pointCount == 9)
        #expect(gpx.segments.contains { $0.isEmpty })
        #expect(gpx.name == "2013-07-06T14:59:00Z")
        let car = try GPX.read(try Fixtures.data("gpx/around-visnjan-with-car.gpx"))
        #expect(car.creator == "eTrex 20x")
        #expect(car.pointCount == 104)
        #expect(car.segments.first?.first?.elevation != nil)
        // gpxpy's moving time for this track is 308 s (it measures speed in 3D).
        #expect(abs(car.statistics.movingSeconds! - 308) <= 30)
    }

    @Test func timesWithFractionsOffsetsOrNoZone() {
        #expect(GPX.time("2020-12-18T06:15:50Z") == Date(timeIntervalSince1970: 1_608_272_150))
        #expect(GPX.time("2020-12-18T07:15:50+01:00") == Date(timeIntervalSince1970: 1_608_272_150))
        #expect(GPX.time("2020-12-18T06:15:50") == Date(timeIntervalSince1970: 1_608_272_150))
        let fraction = GPX.time("2020-12-18T06:15:50.5Z")!.timeIntervalSince1970
        #expect(abs(fraction - 1_608_272_150.5) < 0.001)
        #expect(GPX.time("yesterday") == nil)
    }

    @Test(arguments: ["gpx1.1_with_all_fields.gpx", "unicode_with_bom.gpx"])
    func filesWithoutATrackAreRefusedWithAReason(_ file: String) throws {
        #expect {
            try GPX.read(try Fixtures.data("gpx/\(file)"))
        } throws: { error in
            (error as? GPXError)?.description.contains("track") == true
        }
    }

    @Test func entitiesBadXMLAndLimitsAreRefused() throws {
        let laughs = """
            <?xml version="1.0"?>
            <!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <gpx><trk><name>&b;</name></trk></gpx>
            """
        #expect(throws: GPXError.self) { try GPX.read(Data(laughs.utf8)) }
        #expect(throws: GPXError.self) { try GPX.read(Data("<gpx><trk>".utf8)) }
        #expect(throws: GPXError.self) { try GPX.read(Data("<kml></kml>".utf8)) }
        #expect(throws: GPXError.self) { try GPX.read(Data()) }
        #expect(throws: GPXError.self) {
            try GPX.read(Data(#"<gpx><trk><trkseg><trkpt lat="91" lon="0"/></trkseg></trk></gpx>"#.utf8))
        }
        var many = "<gpx><trk><trkseg>"
        for index in 0..<11 { many += #"<trkpt lat="1.\#(index)" lon="2"/>"# }
        many += "</trkseg></trk></gpx>"
        #expect(try GPX.read(Data(many.utf8), maximumPoints: 11).pointCount == 11)
        #expect {
            try GPX.read(Data(many.utf8), maximumPoints: 10)
        } throws: { error in
            (error as? GPXError)?.description.contains("more than 10") == true
        }
        #expect(throws: GPXError.self) { try GPX.read(Data(count: GPX.maximumBytes + 1)) }
    }
}
