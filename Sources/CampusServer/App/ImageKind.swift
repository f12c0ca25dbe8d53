import InputRules
import Localization

/// The image formats Campus takes from people (avatars, photos of tasks), recognized by their
/// first bytes rather than by what the upload says it is.
enum ImageKind {
    case png, jpeg, webp

    init?(sniffing data: [UInt8]) {
        if data.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            self = .png
        } else if data.starts(with: [0xFF, 0xD8, 0xFF]) {
            self = .jpeg
        } else if data.count >= 12, data.starts(with: Array("RIFF".utf8)), Array(data[8..<12]) == Array("WEBP".utf8) {
            self = .webp
        } else {
            return nil
        }
    }

    var mediaType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        }
    }

    /// The kind of an upload's bytes: 422 on `field` when they are no PNG, JPEG or WebP image
    /// (`notAnImage` says so), or another kind than the upload said (`application/octet-stream`
    /// says nothing).
    static func of(_ data: [UInt8], sentAs contentType: String, field: String, notAnImage: Phrase) throws -> ImageKind {
        guard let detected = ImageKind(sniffing: data) else {
            throw Refusal.invalid(FieldProblem(field: field, notAnImage))
        }
        guard detected.mediaType == contentType || contentType == "application/octet-stream" else {
            throw Refusal.invalid(
                FieldProblem(
                    field: field, detail: "The file is a {fileType} image but was sent as {sentType}.",
                    ["fileType": detected.mediaType, "sentType": contentType]))
        }
        return detected
    }
}
