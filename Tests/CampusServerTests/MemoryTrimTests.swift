import Testing

@testable import CampusServer

/// The periodic trim finds glibc's `malloc_trim`: it is looked up at run time, and were the lookup
/// to fail, the server would silently keep freed memory (what it returns is measured by
/// Benchmarks/schedule-fresh.sh).
@Suite struct MemoryTrimTests {
    @Test func glibcsTrimIsFound() {
        #if os(Linux)
            #expect(MemoryTrimService.mallocTrim != nil)
        #endif
    }
}
