#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP port that takes connections and never answers: a listening socket that nobody accepts
/// from (the kernel completes the handshakes), as a database server that hangs looks to clients.
final class Blackhole {
    struct Unavailable: Error {}

    let port: Int
    private let descriptor: Int32

    init() throws {
        #if canImport(Glibc)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw Unavailable() }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) }
        }
        guard bound == 0, listen(descriptor, 128) == 0 else {
            _ = close(descriptor)
            throw Unavailable()
        }
        var named = sockaddr_in()
        var namedLength = length
        _ = withUnsafeMutablePointer(to: &named) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &namedLength) }
        }
        self.descriptor = descriptor
        self.port = Int(UInt16(bigEndian: named.sin_port))
    }

    deinit { _ = close(descriptor) }
}
