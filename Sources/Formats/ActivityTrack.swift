import Compete
import CompressNIO
import Foundation
import InputRules
import Localization
import NIOCore

/// A recorded activity in any format Campus reads, known by its first bytes rather than its
/// name: GPX, TCX or FIT, each also gzip-compressed (`.gpx.gz`, `.tcx.gz`, `.fit.gz`, as Strava's
/// bulk export gives them). The track's statistics are computed the same way for all.
public enum ActivityTrack {
    public enum Format: String, Sendable {
        case gpx, tcx, fit
    }

    /// The track's segments and what format it came in.
    public static func read(_ data: Data) throws(GPXError) -> (format: Format, segments: [[TrackPoint]]) {
        guard !data.isEmpty else { throw GPXError(detail: "The file is empty.") }
        if data.starts(with: [0x1F, 0x8B]) {
            let unpacked = try gunzipped(data)
            guard !unpacked.starts(with: [0x1F, 0x8B]) else {
                throw GPXError(detail: "The file is compressed twice.")
            }
            return try read(unpacked)
        }
        if FIT.looksLikeFIT(data) { return (.fit, try FIT.read(data)) }
        // XML: TCX names its root in the first bytes (after a declaration and perhaps comments).
        if String(decoding: data.prefix(2048), as: UTF8.self).contains("<TrainingCenterDatabase") {
            return (.tcx, try TCX.read(data))
        }
        return (.gpx, try GPX.read(data).segments)
    }

    /// The file unpacked, at most ``GPX/maximumBytes``: a small file that unpacks to gigabytes
    /// is refused as soon as it passes the limit.
    static func gunzipped(_ data: Data) throws(GPXError) -> Data {
        var buffer = ByteBuffer(bytes: data)
        do {
            let unpacked = try buffer.decompress(with: .gzip, maxSize: GPX.maximumBytes)
            return Data(unpacked.readableBytesView)
        } catch let error as CompressNIOError where error == .bufferOverflow {
            throw GPXError(
                detail: "The unpacked file is larger than {maximum} MiB.", ["maximum": String(GPX.maximumBytes >> 20)])
        } catch {
            throw GPXError(detail: "The file looks gzip-compressed but cannot be unpacked.")
        }
    }
}
