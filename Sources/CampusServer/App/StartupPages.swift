import Foundation
import NIOPosix

/// Gives back the pages of code and read-only data that only start-up used.
///
/// Start-up runs much code once — migrations, the demo, the OpenAPI document's parser, the
/// templates' compiler, the catalogues' reader — and the kernel keeps every page it touched
/// resident in the process until memory runs short. Once the server listens, `campus serve`
/// asks the kernel to drop the clean file-backed pages (`MADV_PAGEOUT`, Linux 5.4); what the
/// server then runs comes back from the page cache on first use. The idle server's resident
/// memory falls by about 17 MB (docs/BENCHMARKS.md); dirty and anonymous pages are untouched.
public enum StartupPages {
    /// Linux's `MADV_PAGEOUT`, which Swift's Glibc module does not export.
    static let pageOut: CInt = 21

    /// Pages out every read-only file mapping of the process (on NIO's thread pool); returns how
    /// many mappings the kernel took. Where the kernel does not know the advice, nothing happens.
    @discardableResult
    public static func release() async -> Int {
        (try? await NIOThreadPool.singleton.runIfActive { releaseNow() }) ?? 0
    }

    static func releaseNow() -> Int {
        guard let maps = readProcFile("/proc/self/maps") else { return 0 }
        var released = 0
        for line in maps.split(separator: "\n") {
            // address perms offset device inode path: only private, read-only mappings of a file.
            let fields = line.split(separator: " ", omittingEmptySubsequences: true)
            guard fields.count >= 6, fields[5].hasPrefix("/"), fields[1] == "r--p" || fields[1] == "r-xp" else {
                continue
            }
            let bounds = fields[0].split(separator: "-")
            guard bounds.count == 2, let start = UInt(bounds[0], radix: 16), let end = UInt(bounds[1], radix: 16),
                end > start, let address = UnsafeMutableRawPointer(bitPattern: start)
            else { continue }
            if madvise(address, Int(end - start), pageOut) == 0 { released += 1 }
        }
        return released
    }

    /// A file of /proc, read to its end: the kernel writes it as it is read, and says its size is
    /// 0, so Foundation's readers stop after their first buffer.
    static func readProcFile(_ path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var data = Data()
        while let chunk = try? handle.read(upToCount: 65536), !chunk.isEmpty { data.append(chunk) }
        return String(decoding: data, as: UTF8.self)
    }
}
