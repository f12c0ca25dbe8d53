import Compete
import Foundation
import InputRules
import Localization

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Garmin's Training Center XML (TCX), read for its tracks: every `Track` of every lap of every
/// activity (or course) is a segment of its `Trackpoint`s that have a `Position`; points without
/// one (a treadmill, a lost signal) are skipped. Parsed as GPX is (``GPX/parse(_:with:)``).
public enum TCX {
    public static func read(_ data: Data, maximumPoints: Int = GPX.maximumPoints) throws(GPXError) -> [[TrackPoint]] {
        let reader = Reader(maximumPoints: maximumPoints)
        try GPX.parse(data, with: reader)
        try GPX.requireTrack(reader.segments)
        return reader.segments
    }

    private final class Reader: NSObject, TrackXMLReader {
        let maximumPoints: Int
        var failure: GPXError?
        var firstError: (any Error)?
        var segments: [[TrackPoint]] = []
        private var depth = 0
        private var points = 0
        private var latitude: Double?
        private var longitude: Double?
        private var elevation: Double?
        private var time: Date?
        private var inPoint = false
        private var text = ""

        init(maximumPoints: Int) { self.maximumPoints = maximumPoints }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            if firstError == nil { firstError = parseError }
        }

        private func fail(_ parser: XMLParser, _ error: GPXError) {
            if failure == nil { failure = error }
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if depth == 0, elementName != "TrainingCenterDatabase" {
                fail(
                    parser,
                    GPXError(
                        detail:
                            "The file is XML but not TCX: its root element is <{element}>, not <TrainingCenterDatabase>.",
                        ["element": elementName]))
                return
            }
            depth += 1
            text = ""
            switch elementName {
            case "Track": segments.append([])
            case "Trackpoint":
                inPoint = true
                (latitude, longitude, elevation, time) = (nil, nil, nil, nil)
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            if text.utf8.count < 200 { text += string }
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            guard !XMLInput.stopped(parser, after: firstError) else { return }
            defer {
                depth -= 1
                text = ""
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard inPoint else { return }
            switch elementName {
            case "LatitudeDegrees": latitude = Double(value).flatMap { (-90...90).contains($0) ? $0 : nil }
            case "LongitudeDegrees": longitude = Double(value).flatMap { (-180...180).contains($0) ? $0 : nil }
            case "AltitudeMeters": elevation = Double(value)
            case "Time":
                time = GPX.time(value)
                if let time, !DateRules.isSupported(time) {
                    fail(
                        parser,
                        GPXError(
                            detail: "The track point on line {line} has a time outside {firstDay} to {lastDay}.",
                            DateRules.rangeValues.merging(["line": String(parser.lineNumber)]) { _, new in new }))
                }
            case "Trackpoint":
                inPoint = false
                guard let latitude, let longitude, !segments.isEmpty else { return }
                points += 1
                if points > maximumPoints {
                    fail(
                        parser,
                        GPXError(
                            detail: "The file has more than {maximum} track points.",
                            ["maximum": String(maximumPoints)]))
                    return
                }
                segments[segments.count - 1].append(
                    TrackPoint(latitude: latitude, longitude: longitude, elevation: elevation, time: time))
            default: break
            }
        }
    }
}
