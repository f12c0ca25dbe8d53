import HTTPTypes
import HummingbirdTesting
import NIOCore

@testable import CampusServer

extension TestServer {
    /// A small PNG.
    static let avatarPNG: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 300)

    /// Puts ``avatarPNG`` as the avatar of the account signed in with `token`.
    func putAvatar(token: String) async throws -> TestResponse {
        try await http.execute(
            uri: "/api/v1/me/avatar", method: .put,
            headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
            body: ByteBuffer(bytes: Self.avatarPNG))
    }
}
