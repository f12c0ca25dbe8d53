import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection to a test server that sends and reads bytes as they are, for what HTTP
/// clients will not send (a `PUT` after a `GET` on one connection, an Icecast source's head of
/// any size). Its blocking calls run on a thread of their own, never on Swift's.
final class RawConnection: @unchecked Sendable {
    private let socket: Int32

    /// A connection to 127.0.0.1:`port`; a read gives up after `timeout` without a byte.
    init(port: Int, timeout: Duration = .seconds(20)) throws {
        #if canImport(Glibc)
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            socket = Darwin.socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard socket >= 0 else { throw POSIXError(.EBADF) }
        var wait = timeval(tv_sec: Int(timeout.components.seconds), tv_usec: 0)
        _ = setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
            var on: Int32 = 1
            _ = setsockopt(socket, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let fd = socket
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { throw POSIXError(.ECONNREFUSED) }
    }

    deinit { if socket >= 0 { close(socket) } }

    /// Sends every byte (false when the server closed the connection first).
    @discardableResult
    func send(_ text: String) async -> Bool {
        await send(Array(text.utf8))
    }

    @discardableResult
    func send(_ bytes: [UInt8]) async -> Bool {
        let fd = socket
        return await offThread {
            #if canImport(Glibc)
                let flags = Int32(MSG_NOSIGNAL)
            #else
                let flags: Int32 = 0
            #endif
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { systemSend(fd, $0, flags) }
                if count <= 0 { return false }
                sent += count
            }
            return true
        }
    }

    /// Says that nothing more will be sent (the client leaves while it can still read).
    func finishSending() {
        _ = shutdown(socket, Int32(SHUT_WR))
    }

    /// Reads until `done` says the bytes so far are enough, the server closes, or the timeout
    /// passes without a byte.
    func receive(until done: @escaping @Sendable ([UInt8]) -> Bool = { _ in false }) async -> [UInt8] {
        let fd = socket
        return await offThread {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while !done(received) {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count <= 0 { break }
                received += buffer[0..<count]
            }
            return received
        }
    }

    /// One whole answer of the server: its head, and its body (as long as its Content-Length
    /// says, or up to the last chunk of a chunked one).
    func answer() async -> (head: String, body: [UInt8]) {
        let bytes = await receive { received in Self.split(received)?.complete ?? false }
        guard let parts = Self.split(bytes) else { return (String(decoding: bytes, as: UTF8.self), []) }
        return (parts.head, Array(parts.body))
    }

    private static func split(_ bytes: [UInt8]) -> (head: String, body: ArraySlice<UInt8>, complete: Bool)? {
        let blank: [UInt8] = [13, 10, 13, 10]
        guard bytes.count >= 4,
            let end = (0...(bytes.count - 4)).first(where: { bytes[$0..<$0 + 4].elementsEqual(blank) })
        else { return nil }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        var length = 0
        var chunked = false
        for line in head.split(separator: "\r\n") {
            let parts = line.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { continue }
            let value = parts[1].trimmingCharacters(in: .whitespaces).lowercased()
            switch parts[0].lowercased() {
            case "content-length": length = Int(value) ?? 0
            case "transfer-encoding": chunked = value.contains("chunked")
            default: break
            }
        }
        let body = bytes[(end + 4)...]
        if chunked { return (head, body, body.suffix(5).elementsEqual(Array("0\r\n\r\n".utf8))) }
        return (head, body.prefix(length), body.count >= length)
    }

    private func offThread<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread.detachNewThread { continuation.resume(returning: work()) }
        }
    }
}

/// `send(2)` of the platform's C library.
private func systemSend(_ socket: Int32, _ bytes: UnsafeRawBufferPointer, _ flags: Int32) -> Int {
    #if canImport(Glibc)
        Glibc.send(socket, bytes.baseAddress, bytes.count, flags)
    #else
        Darwin.send(socket, bytes.baseAddress, bytes.count, flags)
    #endif
}

extension RawConnection {
    /// Sends each of `parts` (`pause` apart) on a connection of its own, then, when `halfClose`,
    /// says it will send nothing more; returns what the server answered until it closed the
    /// connection (or `timeout` passed without a byte). A server that answers and closes before
    /// everything was sent: its answer counts.
    static func exchange(
        port: Int, _ parts: [String], pause: Duration = .milliseconds(50), halfClose: Bool = false,
        timeout: Duration = .seconds(10)
    ) async throws -> String {
        let connection = try RawConnection(port: port, timeout: timeout)
        for (index, part) in parts.enumerated() {
            if index > 0 { try await Task.sleep(for: pause) }
            guard await connection.send(part) else { break }
        }
        if halfClose { connection.finishSending() }
        return String(decoding: await connection.receive(), as: UTF8.self)
    }

    /// The status lines of the answers in `text`, in order (an answer starts right after the
    /// last byte of the one before it).
    static func statusLines(_ text: String) -> [String] {
        text.matches(of: /HTTP\/1\.1 [0-9]{3}[^\r\n]*/).map { String($0.output) }
    }
}
