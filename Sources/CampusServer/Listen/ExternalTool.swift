import Formats
import Foundation
import Listen
import Localization
import Logging
import NIOPosix
import Storage

/// A program Campus runs (ffprobe, ffmpeg), found on the PATH.
struct ExternalTool: Sendable {
    var name: String

    static let ffprobe = ExternalTool(name: "ffprobe")
    static let ffmpeg = ExternalTool(name: "ffmpeg")

    struct Failed: PhrasedError {
        var phrase: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        init(detail message: String, _ values: [String: String] = [:]) { phrase = Phrase(message, values) }
    }

    /// A local file as an input of ffmpeg or ffprobe: `file:` says it is a file whatever its
    /// name looks like (`-x.mp3` is no option, `a:b.mp3` no protocol).
    static func fileInput(_ path: String) -> String { "file:" + path }

    /// The program's full path, or nil when it is not installed.
    var path: String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
        for directory in directories {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs the program to its end and returns what it wrote to standard output (at most
    /// `limit` bytes); a non-zero exit is an error carrying what it wrote to standard error.
    func run(_ arguments: [String], limit: Int = 16 << 20) async throws -> Data {
        guard let path else {
            throw Failed(detail: "{program} is not installed; install Debian's ffmpeg package.", ["program": name])
        }
        return try await NIOThreadPool.singleton.runIfActive {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: path)
            process.arguments = arguments
            let output = Pipe()
            let errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Read standard error alongside, so that a chatty program never blocks on a full pipe.
            let errorText = ErrorText()
            let errorReader = Thread { errorText.data = errors.fileHandleForReading.readDataToEndOfFile() }
            errorReader.start()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            while !errorText.isDone { usleep(1000) }
            guard process.terminationStatus == 0 else {
                let message = String(decoding: errorText.data.prefix(2000), as: UTF8.self)
                throw Failed(
                    detail: "{program} failed: {reason}",
                    ["program": name, "reason": message.trimmingCharacters(in: .whitespacesAndNewlines)])
            }
            guard data.count <= limit else {
                throw Failed(
                    detail: "{program} wrote more than {limit} bytes.", ["program": name, "limit": String(limit)])
            }
            return data
        }
    }

    private final class ErrorText: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: Data?
        var data: Data {
            get { lock.withLock { stored ?? Data() } }
            set { lock.withLock { stored = newValue } }
        }
        var isDone: Bool { lock.withLock { stored != nil } }
    }
}
