import Compete
import Foundation

/// The live page's map: tracks drawn as SVG lines, with no map tiles from outside. Positions are
/// projected equirectangularly around the tracks' middle latitude (true to shape at a race's
/// size) onto a drawing 1000 units wide; the page's script projects new positions the same way
/// (`data-` attributes carry the projection) and draws again when one falls outside.
struct TrackMap: Sendable {
    static let width = 1000.0
    /// The tracks' west and north edges, the cosine of their middle latitude, and units per degree.
    var west: Double
    var north: Double
    var cosine: Double
    var scale: Double
    var height: Double

    /// The projection that holds every position with a margin; a square around Minsk without any.
    init(_ tracks: [[TrackPoint]]) {
        let all = tracks.joined()
        var south = all.map(\.latitude).min() ?? 53.85
        var north = all.map(\.latitude).max() ?? 53.95
        let middle = (south + north) / 2
        let cosine = max(0.01, cos(middle * .pi / 180))
        var west = all.map(\.longitude).min() ?? 27.5
        var east = all.map(\.longitude).max() ?? 27.65
        // At least about 200 metres each way, and a twentieth on every side.
        let minimum = 0.002
        if north - south < minimum {
            (south, north) = (middle - minimum / 2, middle + minimum / 2)
        }
        if (east - west) * cosine < minimum {
            let centre = (west + east) / 2
            (west, east) = (centre - minimum / 2 / cosine, centre + minimum / 2 / cosine)
        }
        let margin = max(north - south, (east - west) * cosine) / 20
        south -= margin
        north += margin
        west -= margin / cosine
        east += margin / cosine
        self.west = west
        self.north = north
        self.cosine = cosine
        self.scale = Self.width / ((east - west) * cosine)
        self.height = ((north - south) * scale).rounded(.up)
    }

    func x(_ point: TrackPoint) -> Double { (point.longitude - west) * cosine * scale }
    func y(_ point: TrackPoint) -> Double { (north - point.latitude) * scale }

    /// An SVG `points` attribute: "x,y x,y …" to a tenth of a unit.
    func polyline(_ points: [TrackPoint]) -> String {
        points.map { "\(Self.tenths(x($0))),\(Self.tenths(y($0)))" }.joined(separator: " ")
    }

    static func tenths(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }

    var viewBox: String { "0 0 \(Int(Self.width)) \(Int(height))" }
}
