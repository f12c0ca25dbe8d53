import Foundation
import InputRules
import MultipartKit
import NIOCore

/// Web forms sent as `multipart/form-data` (file uploads): the boundary from the Content-Type,
/// the fields decoded by MultipartKit, and a file part's name.
public enum MultipartForm {
    /// A body that is not the multipart form it says it is.
    public struct Unreadable: Error, Sendable, Equatable {
        public var detail: String
    }

    /// The `boundary` parameter of a `multipart/form-data` Content-Type: 1 to 70 characters
    /// (RFC 2046), quoted or not; nil for any other type.
    public static func boundary(contentType: String?) -> String? {
        guard let contentType, contentType.utf8.count <= 500,
            contentType.lowercased().hasPrefix("multipart/form-data")
        else { return nil }
        for parameter in contentType.split(separator: ";").dropFirst() {
            let parts = parameter.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces).lowercased() == "boundary" else {
                continue
            }
            var value = parts[1].trimmingCharacters(in: .whitespaces)
            if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 {
                value = String(value.dropFirst().dropLast())
            }
            guard (1...70).contains(value.utf8.count), !value.containsControlCharacters else { return nil }
            return value
        }
        return nil
    }

    /// The form's fields.
    public static func decode<Form: Decodable>(_ type: Form.Type, from body: ByteBuffer, boundary: String)
        throws(Unreadable) -> Form
    {
        let isASCII = body.withUnsafeReadableBytes { headerNamesAreASCII($0, boundary: Array(boundary.utf8)) }
        guard isASCII else {
            throw Unreadable(detail: "A part of the form has a header name that is not ASCII.")
        }
        do {
            return try FormDataDecoder().decode(Form.self, from: body, boundary: boundary)
        } catch {
            throw Unreadable(detail: "The form could not be read as multipart/form-data.")
        }
    }

    /// Whether every header name of every part is ASCII. MultipartKit 4.7 looks a header name's
    /// bytes up in a table of 128 entries and traps on any byte above 127 (found by
    /// Fuzz/FuzzMultipart): a student's upload stopped the server. Headers start after
    /// `--boundary` and CR LF; a name runs to a colon, a value to a CR, which a LF must follow; a
    /// CR where a name would start ends them (MultipartKit's grammar). Every `--boundary` CR LF
    /// in the body is taken as a start, which covers every place MultipartKit can start.
    static func headerNamesAreASCII(_ bytes: UnsafeRawBufferPointer, boundary: [UInt8]) -> Bool {
        let delimiter = Array("--".utf8) + boundary + [0x0D, 0x0A]
        guard !boundary.isEmpty, bytes.count >= delimiter.count else { return true }
        enum State {
            case name(empty: Bool)
            case value
            case afterValue
        }
        var start = 0
        while start <= bytes.count - delimiter.count {
            guard bytes[start] == 0x2D, bytes[start..<start + delimiter.count].elementsEqual(delimiter) else {
                start += 1
                continue
            }
            var state = State.name(empty: true)
            var index = start + delimiter.count
            scan: while index < bytes.count {
                let byte = bytes[index]
                switch state {
                case .name(let empty):
                    if byte == UInt8(ascii: ":") && !empty {
                        state = .value
                    } else if byte == 0x0D && empty {
                        break scan
                    } else if byte >= 0x80 {
                        return false
                    } else {
                        state = .name(empty: false)
                    }
                case .value:
                    if byte == 0x0D { state = .afterValue }
                case .afterValue:
                    guard byte == 0x0A else { break scan }
                    state = .name(empty: true)
                }
                index += 1
            }
            start += 1
        }
        return true
    }

    /// The file name of a part's `Content-Disposition` (`form-data; name="file"; filename="a.mp3"`),
    /// without any folders the browser sent, at most 200 characters.
    public static func fileName(contentDisposition: String?) -> String? {
        guard let disposition = contentDisposition, disposition.utf8.count <= 2000,
            let range = disposition.range(of: "filename=")
        else { return nil }
        var name = disposition[range.upperBound...].prefix { $0 != ";" }.trimmingCharacters(in: .whitespaces)
        if name.hasPrefix("\""), name.hasSuffix("\""), name.count >= 2 { name = String(name.dropFirst().dropLast()) }
        name = (name as NSString).lastPathComponent
        return name.isEmpty ? nil : String(name.prefix(200))
    }
}

/// Web forms sent as `application/x-www-form-urlencoded`.
public enum URLEncodedForm {
    /// The fields in order, names and values decoded (`+` is a space); a name may come more
    /// than once. Nil when a part is not percent-encoded UTF-8.
    public static func fields(in body: String) -> [(name: String, value: String)]? {
        var fields: [(name: String, value: String)] = []
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = parts.first.flatMap(decoded), let value = parts.count > 1 ? decoded(parts[1]) : ""
            else { return nil }
            fields.append((name, value))
        }
        return fields
    }

    private static func decoded(_ part: Substring) -> String? {
        // Most names and values hold neither: Foundation's decoding (through NSString) is then skipped.
        guard part.utf8.contains(where: { $0 == UInt8(ascii: "%") || $0 == UInt8(ascii: "+") }) else {
            return String(part)
        }
        return part.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    /// The first field that is not percent-encoded UTF-8 or holds a control character (line
    /// breaks and tabs, as a text area sends them, are allowed; the rules of single-line fields
    /// refuse them).
    public static func problem(in body: String) -> FieldProblem? {
        for pair in body.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = parts.first.flatMap(decoded) ?? ""
            guard let value = parts.count > 1 ? decoded(parts[1]) : "" else {
                return FieldProblem(field: name, detail: "{field} is not percent-encoded UTF-8.", ["field": name])
            }
            if let control = TextRules.firstControl(in: value, multiline: true) {
                return FieldProblem(
                    field: name, detail: "{field} contains a control character ({codePoint}), which is not allowed.",
                    ["field": name, "codePoint": TextRules.codePoint(control)])
            }
        }
        return nil
    }
}
