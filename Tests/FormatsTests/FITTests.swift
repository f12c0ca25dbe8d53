import Compete
import Foundation
import Testing

@testable import Formats

/// What the fitdecode comparison in Tests/e2e/test_activity_files.py does not reach: compressed
/// timestamp headers (with their 32-second rollover), little-endian records, developer fields,
/// invalid positions, and files that end early.
struct FITTests {
    /// A FIT file of these records (header of 12 bytes, no checksums: Campus does not read them).
    static func file(_ records: [UInt8]) -> Data {
        var header: [UInt8] = [12, 0x20, 0x54, 0x08]
        withUnsafeBytes(of: UInt32(records.count).littleEndian) { header += $0 }
        header += Array(".FIT".utf8)
        return Data(header + records + [0, 0])
    }

    static func le(_ value: UInt32) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }
    static func le(_ value: Int32) -> [UInt8] { le(UInt32(bitPattern: value)) }

    static let start: UInt32 = 1_000_000_030  // its low five bits: 30

    /// Local 0: record with timestamp, position and a developer field of 2 bytes; local 1: record
    /// with position only, for compressed timestamp headers.
    static let definitions: [UInt8] =
        [0x60, 0, 0, 20, 0, 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85, 1, 0, 2, 0]
        + [0x41, 0, 0, 20, 0, 2, 0, 4, 0x85, 1, 4, 0x85]

    static func semicircles(_ degrees: Double) -> Int32 { Int32(degrees / 180 * 2_147_483_648) }

    @Test func compressedTimestampsRollOverAndInvalidPositionsAreSkipped() throws {
        var records = Self.definitions
        records +=
            [0x00] + Self.le(Self.start) + Self.le(Self.semicircles(53.9)) + Self.le(Self.semicircles(27.5))
            + [0xAA, 0xBB]
        // Offset 31 (one second later), then 2 (a rollover: 4 seconds later), then no position.
        records += [0x80 | 1 << 5 | 31] + Self.le(Self.semicircles(53.901)) + Self.le(Self.semicircles(27.5))
        records += [0x80 | 1 << 5 | 2] + Self.le(Self.semicircles(53.902)) + Self.le(Self.semicircles(27.5))
        records += [0x80 | 1 << 5 | 3] + Self.le(Int32.max) + Self.le(Int32.max)
        let segments = try FIT.read(Self.file(records))
        #expect(segments.count == 1 && segments[0].count == 3)
        let epoch = FIT.epoch
        #expect(
            segments[0].map { $0.time?.timeIntervalSince1970 } == [
                epoch + Double(Self.start), epoch + Double(Self.start + 1), epoch + Double(Self.start + 4),
            ])
        #expect(abs(segments[0][1].latitude - 53.901) < 1e-6)
    }

    @Test func filesThatEndEarlyOrUseUndefinedMessagesAreRefused() {
        let records = Self.definitions + [0x00] + Self.le(Self.start)
        #expect(throws: GPXError.self) { try FIT.read(Self.file(records)) }
        #expect(throws: GPXError.self) { try FIT.read(Self.file([0x05, 1, 2, 3])) }
        #expect(throws: GPXError.self) { try FIT.read(Self.file(Array(Self.file(Self.definitions).prefix(20)))) }
        #expect(!FIT.looksLikeFIT(Data("<gpx>".utf8)))
    }
}
