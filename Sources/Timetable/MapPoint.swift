/// A place on the map: where a building (or a room without a numbered building) is, so that a room
/// and a lesson can link to it (seed 003's "show the building on a map").
public struct MapPoint: Sendable, Hashable {
    public let latitude: Double
    public let longitude: Double

    /// Nil unless both are finite and on the globe (latitude −90…90, longitude −180…180).
    public init?(latitude: Double, longitude: Double) {
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude)
        else { return nil }
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Nil when either is absent or the point is not on the globe.
    public init?(latitude: Double?, longitude: Double?) {
        guard let latitude, let longitude else { return nil }
        self.init(latitude: latitude, longitude: longitude)
    }

    /// The point on OpenStreetMap, with a marker, at street zoom; no map tiles are served by Campus.
    public var openStreetMapURL: String {
        let lat = Self.text(latitude)
        let lon = Self.text(longitude)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=18/\(lat)/\(lon)"
    }

    /// Six decimals (about 10 cm), without trailing zeros.
    static func text(_ value: Double) -> String {
        let micro = (value * 1_000_000).rounded()
        let sign = micro < 0 ? "-" : ""
        let whole = Int(abs(micro)) / 1_000_000
        var fraction = String(Int(abs(micro)) % 1_000_000)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return sign + String(whole) + (fraction.isEmpty ? "" : "." + fraction)
    }
}

/// A numbered building of the institution, with its name and place as admins set them.
public struct Building: Sendable, Hashable {
    public var number: Int
    public var name: String?
    public var point: MapPoint?
    /// How many rooms of the timetable are in it.
    public var roomCount: Int

    public init(number: Int, name: String? = nil, point: MapPoint? = nil, roomCount: Int = 0) {
        self.number = number
        self.name = name
        self.point = point
        self.roomCount = roomCount
    }
}
