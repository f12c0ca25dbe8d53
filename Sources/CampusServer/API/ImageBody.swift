import CampusAPI
import OpenAPIRuntime

/// An image answer's body as openapi.yaml declares it (PNG, JPEG or WebP): the generated enums of
/// every image download take stored bytes the one way `image(_:contentType:)` says.
protocol ImageBody {
    static func png(_ body: HTTPBody) -> Self
    static func jpeg(_ body: HTTPBody) -> Self
    // The generated case's name, which the requirement must have.
    // swift-format-ignore: AlwaysUseLowerCamelCase
    static func image_webp(_ body: HTTPBody) -> Self
}

extension ImageBody {
    /// Stored image bytes with their content type (WebP, the third type uploads may have, when
    /// it is neither PNG nor JPEG).
    static func image(_ data: some Collection<UInt8> & Sendable, contentType: String) -> Self {
        let body = HTTPBody(data)
        switch contentType {
        case "image/png": return .png(body)
        case "image/jpeg": return .jpeg(body)
        default: return .image_webp(body)
        }
    }
}

extension Operations.getTaskImage.Output.Ok.Body: ImageBody {}
extension Operations.getStationImage.Output.Ok.Body: ImageBody {}
extension Operations.getAvatar.Output.Ok.Body: ImageBody {}
extension Operations.getLibraryImage.Output.Ok.Body: ImageBody {}
