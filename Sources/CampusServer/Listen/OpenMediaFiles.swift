import Foundation
import HTTPInput
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Media files kept open, as nginx's `open_file_cache` does: a player asks for many ranges of one
/// item, and opening, describing and closing the file for each cost more than reading 64 KiB.
/// Each request still asks the file system what is at the path (one `stat`, no thread hop): a
/// file replaced or changed since it was opened is opened again, a removed one is gone. Reads
/// happen on NIO's thread pool, one hop per read.
///
/// Foundation's `FileManager.attributesOfItem` is not used here: it also looks up the owner's and
/// group's names and builds a dictionary, several times the cost of the `stat` it wraps.
final class OpenMediaFiles: Sendable {
    /// What identifies the bytes at a path: the same device, inode, size and modification time
    /// mean the open descriptor still reads what the path holds.
    struct Identity: Equatable, Sendable {
        var device: UInt64
        var inode: UInt64
        var size: Int64
        var modifiedSeconds: Int
        var modifiedNanoseconds: Int

        var modified: Date {
            Date(timeIntervalSince1970: TimeInterval(modifiedSeconds) + TimeInterval(modifiedNanoseconds) / 1e9)
        }
        var modifiedMilliseconds: Int64 { Int64(modifiedSeconds) * 1000 + Int64(modifiedNanoseconds / 1_000_000) }
    }

    /// An open file; it is closed when the last request reading it is done with it.
    final class File: Sendable {
        let descriptor: CInt
        let identity: Identity
        /// The modification time as a `Last-Modified` header says it, written once per file
        /// (Foundation's calendar took 2 % of a small range's CPU when each request wrote it).
        let lastModified: String

        init(descriptor: CInt, identity: Identity) {
            self.descriptor = descriptor
            self.identity = identity
            self.lastModified = HTTPDate.text(identity.modified)
        }

        deinit { close(descriptor) }
    }

    /// At most this many files are open at once; past it, the least recently opened one is let go.
    static let capacity = 256

    private struct State {
        var files: [String: File] = [:]
        var order: [String] = []
    }
    private let state = NIOLockedValueBox(State())
    private let pool: NIOThreadPool

    init(pool: NIOThreadPool = .singleton) {
        self.pool = pool
    }

    /// What the file system says is at `path` now; nil if it is not a regular file there.
    static func identity(of path: String) -> Identity? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Identity(
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
            modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec))
    }

    /// The open file at `path`, opened now if it was not or has changed; nil if there is none.
    func file(at path: String) -> File? {
        guard let identity = Self.identity(of: path) else {
            forget(path)
            return nil
        }
        if let kept = state.withLockedValue({ $0.files[path] }), kept.identity == identity { return kept }
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        // Described again through the descriptor: the path may have changed in between.
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        let file = File(
            descriptor: descriptor,
            identity: Identity(
                device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                modifiedSeconds: Int(info.st_mtim.tv_sec), modifiedNanoseconds: Int(info.st_mtim.tv_nsec)))
        state.withLockedValue { state in
            if state.files[path] == nil {
                state.order.append(path)
                if state.order.count > Self.capacity { state.files[state.order.removeFirst()] = nil }
            }
            state.files[path] = file
        }
        return file
    }

    func forget(_ path: String) {
        state.withLockedValue { state in
            guard state.files.removeValue(forKey: path) != nil else { return }
            state.order.removeAll { $0 == path }
        }
    }

    /// `count` bytes of `file` from `offset`. Bytes the page cache holds are read at once, on
    /// the calling thread (`preadv2` with `RWF_NOWAIT` never waits for the disk: it reads what
    /// is cached and stops); the rest is read on the thread pool, so the event loop never waits
    /// for a disk.
    func read(_ file: File, offset: Int64, count: Int) async throws -> ByteBuffer {
        let buffer = Self.cachedPart(file, offset: offset, count: count)
        if buffer.readableBytes == count { return buffer }
        return try await pool.runIfActive { [buffer] in
            var buffer = buffer
            while buffer.readableBytes < count {
                let done = buffer.readableBytes
                let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - done) { bytes in
                    let result = pread(file.descriptor, bytes.baseAddress, count - done, off_t(offset) + off_t(done))
                    return result > 0 ? result : 0
                }
                if read == 0 { throw IOError(errnoCode: EIO, reason: "the file ended before the range did") }
            }
            return buffer
        }
    }

    /// `count` bytes of `file` from `offset` if the page cache holds them all (read at once, on
    /// the calling thread); nil if any would need the disk.
    func cachedBytes(_ file: File, offset: Int64, count: Int) -> ByteBuffer? {
        let buffer = Self.cachedPart(file, offset: offset, count: count)
        return buffer.readableBytes == count ? buffer : nil
    }

    /// Whether the page cache holds every byte of the range, so that sending it (`sendfile`)
    /// never waits for the disk on the event loop; nil when the kernel cannot say (Linux's
    /// `cachestat`, from 6.5 on, answers for a range in one call).
    func isCached(_ file: File, offset: Int64, count: Int64) -> Bool? {
        guard count > 0 else { return true }
        guard let syscall = Self.syscall else { return nil }
        var range = CachestatRange(offset: UInt64(offset), length: UInt64(count))
        var counts = Cachestat()
        let result = syscall(Self.cachestatNumber, CLong(file.descriptor), &range, &counts, 0)
        guard result == 0 else { return nil }
        let page = Int64(Self.pageSize)
        let pages = (offset + count + page - 1) / page - offset / page
        return Int64(counts.cached) >= pages
    }

    /// `struct cachestat_range` and `struct cachestat` (linux/mman.h).
    private struct CachestatRange {
        var offset: UInt64
        var length: UInt64
    }
    private struct Cachestat {
        var cached: UInt64 = 0
        var dirty: UInt64 = 0
        var writeback: UInt64 = 0
        var evicted: UInt64 = 0
        var recentlyEvicted: UInt64 = 0
    }
    /// `cachestat`'s number, the same on every architecture (it came after the tables were unified).
    private static let cachestatNumber: CLong = 451
    private static let pageSize = Int(sysconf(CInt(_SC_PAGESIZE)))
    /// glibc's `syscall`, which Swift does not import (it is variadic). It passes its arguments
    /// on in registers, so a call through a fixed signature of integer and pointer arguments is
    /// the same call on x86-64 and arm64.
    private typealias Syscall =
        @convention(c) (CLong, CLong, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, CUnsignedInt) -> CLong
    private static let syscall: Syscall? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "syscall").map {
        unsafeBitCast($0, to: Syscall.self)
    }

    /// glibc's `preadv2`, found at run time: Swift's Glibc module leaves it out (it is declared
    /// only with `_GNU_SOURCE`), and a C target for one declaration is more than this needs.
    private typealias PreadV2 = @convention(c) (CInt, UnsafePointer<iovec>?, CInt, off_t, CInt) -> Int
    private static let preadv2: PreadV2? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "preadv2").map {
        unsafeBitCast($0, to: PreadV2.self)
    }
    /// Linux's `RWF_NOWAIT` (linux/fs.h): read only what needs no waiting.
    private static let noWait: CInt = 0x0000_0008

    /// A buffer of `count` bytes' capacity holding what of the range, from its start, the page
    /// cache holds, read without waiting.
    private static func cachedPart(_ file: File, offset: Int64, count: Int) -> ByteBuffer {
        var buffer = ByteBufferAllocator().buffer(capacity: count)
        guard let preadv2 else { return buffer }
        while buffer.readableBytes < count {
            let done = buffer.readableBytes
            let read = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: count - done) { bytes in
                var vector = iovec(iov_base: bytes.baseAddress, iov_len: count - done)
                let result = preadv2(file.descriptor, &vector, 1, off_t(offset) + off_t(done), noWait)
                return result > 0 ? result : 0
            }
            if read == 0 { return buffer }
        }
        return buffer
    }
}
