import Compete
import Foundation
import InputRules
import Localization

/// Garmin's Flexible and Interoperable Data Transfer (FIT) protocol, read for the `record`
/// messages (global number 20) of an activity: position (semicircles), altitude and time. Written
/// here because no Swift library in the env list reads FIT; it follows the FIT SDK's protocol
/// description (headers of 12 or 14 bytes, definition and data messages, compressed timestamp
/// headers, developer fields skipped, chained files) and reads nothing it does not need. The
/// checksums are not checked: a damaged file shows as a track that does not hold or as no track.
/// Every read is bounds-checked; a file that ends early is refused.
public enum FIT {
    /// Seconds from 1970-01-01 to FIT's epoch, 1989-12-31 00:00 UTC.
    static let epoch: TimeInterval = 631_065_600
    static let recordMessage: UInt16 = 20

    /// Whether the bytes start as a FIT file (".FIT" at offset 8).
    public static func looksLikeFIT(_ data: Data) -> Bool {
        data.count >= 12 && data[data.startIndex + 8..<data.startIndex + 12].elementsEqual(Array(".FIT".utf8))
    }

    public static func read(_ data: Data, maximumPoints: Int = GPX.maximumPoints) throws(GPXError) -> [[TrackPoint]] {
        try GPX.checkSize(data)
        let bytes = [UInt8](data)
        var points: [TrackPoint] = []
        var offset = 0
        while offset + 12 <= bytes.count {
            let headerSize = Int(bytes[offset])
            let dataSize = Int(Self.uint(bytes, offset + 4, 4, bigEndian: false))
            guard headerSize >= 12, Array(bytes[offset + 8..<offset + 12]) == Array(".FIT".utf8),
                offset + headerSize + dataSize <= bytes.count
            else { throw GPXError(detail: "The file is not a complete FIT file.") }
            var reader = Reader(bytes: bytes, position: offset + headerSize, end: offset + headerSize + dataSize)
            try reader.readRecords(into: &points, maximumPoints: maximumPoints)
            offset += headerSize + dataSize + 2  // the file's CRC
        }
        let segments = [points]
        try GPX.requireTrack(segments)
        return segments
    }

    static func uint(_ bytes: [UInt8], _ offset: Int, _ size: Int, bigEndian: Bool) -> UInt64 {
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (bigEndian ? index : size - 1 - index)])
            value = value << 8 | byte
        }
        return value
    }

    private struct Field {
        var number: UInt8
        var size: Int
    }

    private struct Definition {
        var global: UInt16
        var bigEndian: Bool
        var fields: [Field]
        /// Developer fields' bytes, after the fields: skipped.
        var developerBytes: Int
    }

    private struct Reader {
        let bytes: [UInt8]
        var position: Int
        let end: Int
        var definitions: [Int: Definition] = [:]
        var lastTimestamp: UInt32?

        mutating func take(_ count: Int) throws(GPXError) -> Int {
            guard count >= 0, position + count <= end else {
                throw GPXError(detail: "The file is not a complete FIT file.")
            }
            defer { position += count }
            return position
        }

        mutating func readRecords(into points: inout [TrackPoint], maximumPoints: Int) throws(GPXError) {
            while position < end {
                let header = bytes[try take(1)]
                if header & 0x80 != 0 {
                    // A compressed timestamp header: a data message, its time in five bits.
                    let local = Int(header >> 5 & 0x03)
                    var timestamp: UInt32?
                    if let last = lastTimestamp {
                        let offset = UInt32(header & 0x1F)
                        var time = last & ~0x1F | offset
                        if offset < last & 0x1F { time &+= 0x20 }
                        timestamp = time
                        lastTimestamp = time
                    }
                    try readData(local: local, timestamp: timestamp, into: &points, maximumPoints: maximumPoints)
                } else if header & 0x40 != 0 {
                    try readDefinition(local: Int(header & 0x0F), developer: header & 0x20 != 0)
                } else {
                    try readData(local: Int(header & 0x0F), timestamp: nil, into: &points, maximumPoints: maximumPoints)
                }
            }
        }

        mutating func readDefinition(local: Int, developer: Bool) throws(GPXError) {
            let start = try take(5)
            let bigEndian = bytes[start + 1] == 1
            let global = UInt16(FIT.uint(bytes, start + 2, 2, bigEndian: bigEndian))
            let count = Int(bytes[start + 4])
            let fieldStart = try take(count * 3)
            let fields = (0..<count).map { index in
                Field(number: bytes[fieldStart + index * 3], size: Int(bytes[fieldStart + index * 3 + 1]))
            }
            var developerBytes = 0
            if developer {
                let developerCount = Int(bytes[try take(1)])
                let developerStart = try take(developerCount * 3)
                for index in 0..<developerCount { developerBytes += Int(bytes[developerStart + index * 3 + 1]) }
            }
            definitions[local] = Definition(
                global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
        }

        mutating func readData(
            local: Int, timestamp compressed: UInt32?, into points: inout [TrackPoint], maximumPoints: Int
        ) throws(GPXError) {
            guard let definition = definitions[local] else {
                throw GPXError(detail: "The FIT file uses a message it does not define.")
            }
            var latitude: Int32?
            var longitude: Int32?
            var altitude: Double?
            var timestamp = compressed
            for field in definition.fields {
                let at = try take(field.size)
                let big = definition.bigEndian
                switch (field.number, field.size) {
                case (253, 4):
                    let value = UInt32(FIT.uint(bytes, at, 4, bigEndian: big))
                    if value != .max {
                        timestamp = value
                        lastTimestamp = value
                    }
                case (0, 4) where definition.global == FIT.recordMessage:
                    latitude = Int32(bitPattern: UInt32(FIT.uint(bytes, at, 4, bigEndian: big)))
                case (1, 4) where definition.global == FIT.recordMessage:
                    longitude = Int32(bitPattern: UInt32(FIT.uint(bytes, at, 4, bigEndian: big)))
                case (2, 2) where definition.global == FIT.recordMessage && altitude == nil:
                    let value = FIT.uint(bytes, at, 2, bigEndian: big)
                    if value != 0xFFFF { altitude = Double(value) / 5 - 500 }
                case (78, 4) where definition.global == FIT.recordMessage:
                    let value = FIT.uint(bytes, at, 4, bigEndian: big)
                    if value != 0xFFFF_FFFF { altitude = Double(value) / 5 - 500 }
                default: break
                }
            }
            _ = try take(definition.developerBytes)
            guard definition.global == FIT.recordMessage, let latitude, let longitude,
                latitude != .max, longitude != .max
            else { return }
            let degrees = 180 / 2_147_483_648.0
            let point = TrackPoint(
                latitude: Double(latitude) * degrees, longitude: Double(longitude) * degrees, elevation: altitude,
                time: timestamp.map { Date(timeIntervalSince1970: FIT.epoch + TimeInterval($0)) })
            guard (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else { return }
            if let time = point.time, !DateRules.isSupported(time) {
                throw GPXError(
                    detail: "A track point of the FIT file has a time outside {firstDay} to {lastDay}.",
                    DateRules.rangeValues)
            }
            guard points.count < maximumPoints else {
                throw GPXError(
                    detail: "The file has more than {maximum} track points.", ["maximum": String(maximumPoints)])
            }
            points.append(point)
        }
    }
}
