import Foundation
import Localization
import Timetable

/// Why an outside file could not be read: the file, the field (a path such as
/// `schedules.Понедельник[3].startLessonTime`) and what was wrong with it.
public struct ImportError: PhrasedError, Sendable, Equatable {
    public var file: String?
    public var field: String
    /// What was wrong, after the file and the field ("is missing."), or a whole sentence that
    /// names the field itself when `field` is empty.
    public var reason: Phrase

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`, as for a ``FieldProblem``.
    public init(file: String? = nil, field: String, detail message: String, _ values: [String: String] = [:]) {
        self.init(file: file, field: field, Phrase(message, values))
    }

    public init(file: String? = nil, field: String, _ reason: Phrase) {
        self.file = file
        self.field = field
        self.reason = reason
    }

    /// `file: field: reason`.
    public var phrase: Phrase {
        let place = [file, field.isEmpty ? nil : field].compactMap { $0 }.joined(separator: ": ")
        return place.isEmpty ? reason : Phrase("{place}: {reason}", ["place": place], parts: ["reason": reason])
    }

    /// The same error, said of a file.
    public func inFile(_ name: String) -> ImportError {
        var error = self
        error.file = name
        return error
    }

    /// Describes a JSON decoding error by the path of the field it is about.
    public init(_ error: DecodingError, file: String? = nil) {
        func path(_ codingPath: [any CodingKey]) -> String {
            var text = ""
            for key in codingPath {
                if let index = key.intValue {
                    text += "[\(index)]"
                } else {
                    text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
                }
            }
            return text
        }
        switch error {
        case .typeMismatch(let type, let context):
            self.init(
                file: file, field: path(context.codingPath),
                Phrase("expected {type}.", parts: ["type": Self.describe(type)]))
        case .valueNotFound(let type, let context):
            self.init(
                file: file, field: path(context.codingPath),
                Phrase("expected {type}, found null.", parts: ["type": Self.describe(type)]))
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), detail: "is missing.")
        case .dataCorrupted(let context):
            self.init(
                file: file, field: path(context.codingPath),
                context.codingPath.isEmpty
                    ? Phrase("is not valid JSON.")
                    : Phrase("is not valid: {reason}", ["reason": context.debugDescription]))
        @unknown default:
            self.init(file: file, field: "", detail: "could not be read.")
        }
    }

    static func describe(_ type: Any.Type) -> Phrase {
        switch type {
        case is String.Type: Phrase("a string")
        case is Int.Type, is Int64.Type: Phrase("a whole number")
        case is Double.Type: Phrase("a number")
        case is Bool.Type: Phrase("true or false")
        default: "\(type)".contains("Array") ? Phrase("a list") : Phrase("an object")
        }
    }
}

extension TimetableImport {
    /// The import as it is, if every field keeps ``TimetableLimits``; otherwise the error names
    /// the file and the field. Every timetable reader ends with this check.
    public func checked(file: String?) throws -> TimetableImport {
        do {
            try checkLimits()
        } catch {
            throw ImportError(file: file, field: "", error.phrase)
        }
        return self
    }
}

/// Reading outside files with a size limit.
public enum InputFile {
    /// The largest file an import reads (IIS's largest responses are a few hundred kilobytes).
    public static let maximumSize = 20 << 20

    public static func read(_ path: String, maximumSize: Int = InputFile.maximumSize) throws -> Data {
        let name = URL(fileURLWithPath: path).lastPathComponent
        let attributes: [FileAttributeKey: Any]
        do {
            attributes = try FileManager.default.attributesOfItem(atPath: path)
        } catch {
            throw ImportError(
                file: name, field: "", detail: "cannot be read: {reason}", ["reason": error.localizedDescription])
        }
        if let size = attributes[.size] as? Int, size > maximumSize {
            throw ImportError(
                file: name, field: "",
                detail: "is {size} MiB; files larger than {limit} MiB are not imported.",
                ["size": "\(size >> 20)", "limit": "\(maximumSize >> 20)"])
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportError(
                file: name, field: "", detail: "cannot be read: {reason}", ["reason": error.localizedDescription])
        }
    }
}
