import Foundation
import Listen
import Logging

/// The demo's media library and its radio station (issue 35: a plain `campus serve --demo`, which
/// is what `scripts/run` runs, started with an empty library and no station). Where ffmpeg is
/// installed, the demo makes its library with the script among its resources
/// (`demo/make-demo-media.sh`; espeak-ng speaks the spoken items where it is installed, tones stand
/// in for them where not) in `demo-media` of the media directory, scans it, and keeps a station,
/// Campus Radio, that plays its programme (the demo's lectures) while no source sends to it. What
/// is missing for that is said at start (``lacks(mediaDirectory:)``). A `--library` given with
/// `--demo` is scanned instead of the demo's own.
public enum DemoMedia {
    /// The demo station's mount, and its source password (in the README), so that whoever tries
    /// the demo may broadcast to it as a source would.
    public static let mount = "demo.mp3"
    public static let sourcePassword = "campus-radio"
    static let stationName = "Campus Radio"
    /// The programme the station plays while no source sends (the first programme if the library
    /// has no such one).
    static let programmeTitle = "Physics 101"

    /// What the demo's media lacks on this machine.
    public enum Lack: Sendable, Equatable {
        /// No ffmpeg (or ffprobe): no library, no station.
        case ffmpeg
        /// The library was made without espeak-ng: its spoken items are tones.
        case speech
    }

    /// The folder of the demo's library in the media directory.
    public static func folder(mediaDirectory: String) -> String {
        URL(fileURLWithPath: mediaDirectory).appendingPathComponent("demo-media").path
    }

    /// What the demo's media lacks here, to say at start.
    public static func lacks(mediaDirectory: String) -> [Lack] {
        guard ExternalTool.ffmpeg.path != nil, ExternalTool.ffprobe.path != nil else { return [.ffmpeg] }
        let marker = URL(fileURLWithPath: folder(mediaDirectory: mediaDirectory))
            .appendingPathComponent(".without-speech").path
        return FileManager.default.fileExists(atPath: marker) ? [.speech] : []
    }

    /// Makes the demo's library unless it is made already, and returns its folder; nil without
    /// ffmpeg, or when the script fails (both logged: the server starts all the same).
    static func make(mediaDirectory: String, logger: Logger) async -> String? {
        guard ExternalTool.ffmpeg.path != nil, ExternalTool.ffprobe.path != nil else {
            logger.warning("ffmpeg is not installed: the demo has no media library and no radio station")
            return nil
        }
        let folder = Self.folder(mediaDirectory: mediaDirectory)
        let script = Bundle.module.bundleURL.appendingPathComponent("Resources/demo/make-demo-media.sh").path
        let speaks = ExternalTool(name: "espeak-ng").path != nil
        // The script's own first check, made here so that a start with a finished library
        // starts no process: it is left as it is unless it was made without speech and
        // espeak-ng is there now.
        let complete = FileManager.default.fileExists(atPath: folder + "/.complete")
        if !complete || (speaks && FileManager.default.fileExists(atPath: folder + "/.without-speech")) {
            do {
                if !complete {
                    logger.notice("making the demo's media library", metadata: ["folder": "\(folder)"])
                }
                _ = try await ExternalTool(name: "bash").run([script, folder])
            } catch {
                logger.error("the demo's media library could not be made", metadata: ["error": "\(error)"])
                return nil
            }
        }
        if !speaks {
            logger.notice("espeak-ng is not installed: the demo's spoken items are tones (install Debian's espeak-ng)")
        }
        return folder
    }

    /// The demo's station, added once, with the library's programme; nil when the library has no
    /// programme to play.
    static func station(services: Services, logger: Logger) async throws -> Station? {
        if let station = try? await services.stations.station(mount: mount) { return station }
        let programmes = try await services.catalogue.parents(kind: .programme, limit: 50)
        guard let programme = programmes.first(where: { $0.title == programmeTitle }) ?? programmes.first else {
            logger.notice("the demo's library has no radio programme: the demo has no radio station")
            return nil
        }
        let station = try await services.stations.add(
            StationService.Draft(
                name: stationName, mount: mount,
                description: "The demo's station: the lectures play while no source broadcasts.", genre: "Talk",
                programmeID: programme.id, sourcePassword: sourcePassword),
            by: nil)
        logger.info("demo station added", metadata: ["mount": "\(mount)", "programme": "\(programme.title)"])
        return station
    }
}
