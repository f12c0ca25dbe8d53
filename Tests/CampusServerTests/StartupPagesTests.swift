import Testing

@testable import CampusServer

/// `campus serve` gives start-up's pages back once it listens: the maps are read to their end
/// (the kernel says /proc files are empty, and a reader that trusts the size stops after its first
/// buffer: the first version paged out 11 mappings of about 100), and the kernel takes the advice.
@Suite struct StartupPagesTests {
    @Test func everyReadOnlyFileMappingIsPagedOut() throws {
        #if os(Linux)
            let maps = try #require(StartupPages.readProcFile("/proc/self/maps"))
            let readOnly = maps.split(separator: "\n").filter { line in
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                return fields.count >= 6 && fields[5].hasPrefix("/") && (fields[1] == "r--p" || fields[1] == "r-xp")
            }
            #expect(maps.utf8.count > 4096)
            #expect(readOnly.count > 20)
            #expect(StartupPages.releaseNow() >= readOnly.count - 2)
        #endif
    }
}
