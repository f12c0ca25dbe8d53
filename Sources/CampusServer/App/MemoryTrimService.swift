import Foundation
import Logging
import NIOPosix
import ServiceLifecycle

/// Gives the memory the server has freed back to the system, every few seconds.
///
/// glibc keeps what a thread frees in that thread's arena for its next allocations, so after a
/// burst (thousands of schedules made afresh at 9:00, the answer cache starting over) tens of
/// megabytes stay resident that nothing uses. `malloc_trim(0)` returns the free pages of every
/// arena: after the fresh-schedule load of `Benchmarks/schedule-fresh.sh`, 132.6 MB became
/// 99.7 MB (docs/BENCHMARKS.md). It runs on NIO's thread pool.
struct MemoryTrimService: NamedService {
    let interval: Duration
    let logger: Logger

    func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            let started = ContinuousClock.now
            try? await NIOThreadPool.singleton.runIfActive { Self.trim() }
            logger.trace("memory trimmed", metadata: ["seconds": "\(ContinuousClock.now - started)"])
        }
    }

    /// Returns the free pages of every malloc arena to the system (nothing where glibc is not used).
    static func trim() {
        _ = mallocTrim?(0)
    }

    /// glibc's `malloc_trim`, found at run time: Swift's Glibc module leaves `malloc.h` out.
    typealias MallocTrim = @convention(c) (Int) -> CInt
    static let mallocTrim: MallocTrim? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
        unsafeBitCast($0, to: MallocTrim.self)
    }
}
