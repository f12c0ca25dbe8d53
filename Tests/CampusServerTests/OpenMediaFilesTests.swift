import Foundation
import NIOCore
import Testing

@testable import CampusServer

/// Media files kept open: what is read is always what the path holds now.
@Suite struct OpenMediaFilesTests {
    @Test func aReplacedChangedOrRemovedFileIsNeverReadFromTheOldDescriptor() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("open-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("song.mp3").path
        let first = Data((0..<3_000_000).map { UInt8($0 % 251) })
        try first.write(to: URL(fileURLWithPath: path))
        let files = OpenMediaFiles()

        let file = try #require(files.file(at: path))
        #expect(file.identity.size == Int64(first.count))
        let middle = try await files.read(file, offset: 1_000_000, count: 65_536)
        #expect(Data(buffer: middle) == first[1_000_000..<1_065_536])
        // Asked again, it is the same open file.
        #expect(files.file(at: path) === file)

        // Replaced by another file (a rescan's copy, an editor's save): the new one is read.
        let second = Data((0..<2_000_000).map { UInt8(($0 * 7) % 253) })
        let temporary = folder.appendingPathComponent("new.mp3").path
        try second.write(to: URL(fileURLWithPath: temporary))
        #expect(rename(temporary, path) == 0)
        let replaced = try #require(files.file(at: path))
        #expect(replaced !== file && replaced.identity.size == Int64(second.count))
        #expect(Data(buffer: try await files.read(replaced, offset: 0, count: 100)) == second.prefix(100))
        // The old descriptor still reads the old bytes for a request that holds it.
        #expect(Data(buffer: try await files.read(file, offset: 0, count: 100)) == first.prefix(100))

        // Changed in place (a longer file): opened again.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1, 2, 3]))
        try handle.close()
        let grown = try #require(files.file(at: path))
        #expect(grown !== replaced && grown.identity.size == Int64(second.count + 3))
        #expect(Data(buffer: try await files.read(grown, offset: Int64(second.count), count: 3)) == Data([1, 2, 3]))

        // A range past the end is an error, not short bytes.
        await #expect(throws: (any Error).self) { try await files.read(grown, offset: Int64(second.count), count: 10) }

        // Removed: nothing, and a folder is not a file.
        try FileManager.default.removeItem(atPath: path)
        #expect(files.file(at: path) == nil)
        #expect(files.file(at: folder.path) == nil)
    }
}
