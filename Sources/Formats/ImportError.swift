import Foundation
import Timetable

/// Why an outside file could not be read: the file, the field (a path such as
/// `schedules.Понедельник[3].startLessonTime`) and what was wrong with it.
public struct ImportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String?
    public var field: String
    public var message: String

    public init(file: String? = nil, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String {
        let place = [file, field.isEmpty ? nil : field].compactMap { $0 }.joined(separator: ": ")
        return place.isEmpty ? message : "\(place): \(message)"
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
            self.init(file: file, field: path(context.codingPath), message: "expected \(Self.describe(type)).")
        case .valueNotFound(let type, let context):
            self.init(
                file: file, field: path(context.codingPath), message: "expected \(Self.describe(type)), found null.")
        case .keyNotFound(let key, let context):
            self.init(file: file, field: path(context.codingPath + [key]), message: "is missing.")
        case .dataCorrupted(let context):
            let message =
                context.codingPath.isEmpty ? "is not valid JSON." : "is not valid: \(context.debugDescription)"
            self.init(file: file, field: path(context.codingPath), message: message)
        @unknown default:
            self.init(file: file, field: "", message: "could not be read.")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "a whole number"
        case is Double.Type: "a number"
        case is Bool.Type: "true or false"
        default: "\(type)".contains("Array") ? "a list" : "an object"
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
            throw ImportError(file: file, field: error.field, message: error.message)
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
            throw ImportError(file: name, field: "", message: "cannot be read: \(error.localizedDescription)")
        }
        if let size = attributes[.size] as? Int, size > maximumSize {
            throw ImportError(
                file: name, field: "",
                message: "is \(size >> 20) MiB; files larger than \(maximumSize >> 20) MiB are not imported.")
        }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ImportError(file: name, field: "", message: "cannot be read: \(error.localizedDescription)")
        }
    }
}
