import Foundation
import Timetable

/// Reads BSUIR IIS API responses (https://iis.bsuir.by/api/v1/…) into timetable imports, with
/// the decoding rules of seed 000 (section 3.6 and appendix A).
public enum IIS {
    /// What a file (or an API response) holds, told from its shape.
    public enum Document: Sendable {
        case schedule
        case groups
        case employees
        case faculties
        case specialities
        case departments
        case auditories
        case lastUpdate
    }

    /// Reads any IIS response: a group's or teacher's schedule, or one of the lists.
    public static func read(_ data: Data, file: String? = nil) throws -> TimetableImport {
        do {
            let result: TimetableImport
            switch try kind(of: data) {
            case .schedule: result = try schedule(data)
            case .groups: result = try groups(data)
            case .employees: result = try employees(data)
            case .faculties: result = try faculties(data)
            case .specialities: result = try specialities(data)
            case .departments: result = try departments(data)
            case .auditories: result = try auditories(data).import
            case .lastUpdate:
                throw ImportError(field: "", detail: "is a last-update date, not timetable data.")
            }
            return try result.checked(file: nil)
        } catch let error as ImportError {
            throw file.map { error.inFile($0) } ?? error
        } catch let error as DecodingError {
            throw ImportError(error, file: file)
        }
    }

    /// Tells a document's kind from its keys.
    public static func kind(of data: Data) throws -> Document {
        // The common cases without parsing the whole file: an object with a schedule's keys.
        if let first = data.first(where: { ![0x20, 0x0A, 0x0D, 0x09, 0xEF, 0xBB, 0xBF].contains($0) }),
            first == UInt8(ascii: "{")
        {
            let head = data.prefix(4096)
            for key in ["\"schedules\"", "\"studentGroupDto\"", "\"employeeDto\"", "\"exams\""]
            where head.range(of: Data(key.utf8)) != nil {
                return .schedule
            }
        }
        let json: Any
        do {
            json = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw ImportError(field: "", detail: "is not valid JSON.")
        }
        if let object = json as? [String: Any] {
            if object["lastUpdateDate"] != nil { return .lastUpdate }
            if object.keys.contains(where: { ["schedules", "exams", "studentGroupDto", "employeeDto"].contains($0) }) {
                return .schedule
            }
            throw ImportError(
                field: "", detail: "is not an IIS schedule: it has no “schedules”, “exams” or “studentGroupDto”."
            )
        }
        guard let array = json as? [Any] else {
            throw ImportError(field: "", detail: "is neither an IIS schedule (an object) nor an IIS list (an array).")
        }
        guard let first = array.first as? [String: Any] else {
            throw ImportError(field: "", detail: "is an empty list, or a list of something other than objects.")
        }
        let keys = Set(first.keys)
        if keys.contains("specialityDepartmentEducationFormId") || keys.contains("educationDegree") { return .groups }
        if keys.contains("urlId") || keys.contains("academicDepartment") { return .employees }
        if keys.contains("buildingNumber") || keys.contains("auditoryType") { return .auditories }
        if keys.contains("educationForm") || keys.contains("code") { return .specialities }
        if keys.contains("abbrev") && keys.contains("name") {
            // Faculties and departments look alike; departments' abbreviations say "Каф.".
            let abbreviations = array.compactMap { ($0 as? [String: Any])?["abbrev"] as? String }
            return abbreviations.contains { $0.hasPrefix("Каф") } ? .departments : .faculties
        }
        throw ImportError(
            field: "[0]", detail: "is not an IIS group, employee, auditory, faculty, speciality or department.")
    }

    // MARK: Values

    static func date(_ text: String?, _ path: @autoclosure () -> String) throws -> LocalDate? {
        guard let text = nonEmpty(text) else { return nil }
        switch LocalDate.read(dotted: text) {
        case .success(let date): return date
        case .failure(.outOfRange):
            throw ImportError(
                field: path(), detail: "“{text}” is outside the dates Campus works with, 01.01.1900 to 31.12.2200.",
                ["text": String(describing: text)])
        case .failure(.malformed):
            throw ImportError(
                field: path(), detail: "“{text}” is not a date like 01.09.2023.", ["text": String(describing: text)])
        }
    }

    static func time(_ text: String?, _ path: @autoclosure () -> String) throws -> WallTime? {
        guard let text = nonEmpty(text) else { return nil }
        guard let time = WallTime(text) else {
            throw ImportError(
                field: path(), detail: "“{text}” is not a time like 09:00.", ["text": String(describing: text)])
        }
        return time
    }

    /// Unicode's White_Space characters, told without a property lookup.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09...0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2000...0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000: true
        default: false
        }
    }

    static func nonEmpty(_ text: String?) -> String? {
        guard let text, let first = text.unicodeScalars.first else { return nil }
        // Most strings have no spaces around them; trimming only those that do is much cheaper.
        guard isWhitespace(first) || isWhitespace(text.unicodeScalars.last ?? first) else { return text }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// `GET /last-update-date/…`: `{"lastUpdateDate": "dd.MM.yyyy"}`.
    public static func lastUpdate(_ data: Data) throws -> LocalDate {
        struct DTO: Decodable { var lastUpdateDate: String }
        let dto: DTO
        do {
            dto = try JSONDecoder().decode(DTO.self, from: data)
        } catch let error as DecodingError {
            throw ImportError(error)
        }
        guard let date = try date(dto.lastUpdateDate, "lastUpdateDate") else {
            throw ImportError(field: "lastUpdateDate", detail: "is empty.")
        }
        return date
    }
}

extension String {
    /// The text with a capital first letter ("дневная" → "Дневная").
    var capitalizedFirst: String {
        guard let first else { return self }
        return first.uppercased() + dropFirst()
    }
}
