import Accounts
import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Timetable

/// The string formats openapi.yaml uses, as Campus reads them: dates from 1900 to 2200 (a
/// date-time's day where the institution is, `timeZone`), and e-mail addresses as the account
/// rules accept them.
enum APIFormats {
    static func checks(timeZone: TimeZone) -> [String: RequestValidator.FormatCheck] {
        [
            "date": { text, field, name in
                guard case .failure(let problem) = LocalDate.read(iso: text) else { return nil }
                return LocalDate.fieldProblem(problem, field: field, name: name, example: "2023-09-25")
            },
            "date-time": { text, field, name in
                switch RFC3339.read(text, in: timeZone) {
                case .success: return nil
                case .failure(.malformed):
                    return FieldProblem(
                        field: field,
                        detail:
                            "{field} must be an RFC 3339 date-time like 2026-11-22T09:00:00Z, from {firstDay} to {lastDay}.",
                        DateRules.rangeValues.merging(["field": name]) { _, new in new })
                case .failure(.outOfRange):
                    return FieldProblem(
                        field: field,
                        detail: "{field} is outside the dates Campus works with, {firstDay} to {lastDay}.",
                        DateRules.rangeValues.merging(["field": name]) { _, new in new })
                }
            },
            "email": { text, field, _ in
                do throws(FieldProblem) {
                    _ = try AccountRules.email(text, field: field)
                    return nil
                } catch {
                    return error
                }
            },
        ]
    }
}
