/// How a user's timetable shows lessons (seed 000's lesson view settings): theirs alone, the
/// institution's pages as they are for everyone else.
public struct DisplaySettings: Sendable, Hashable, Codable {
    /// Subjects by their full names ("Веб-технологии") instead of their abbreviations ("ВТ").
    public var fullSubjectNames: Bool

    public init(fullSubjectNames: Bool = false) {
        self.fullSubjectNames = fullSubjectNames
    }

    /// A setting missing from what was kept (kept before it existed) takes its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        fullSubjectNames = try container.decodeIfPresent(Bool.self, forKey: .fullSubjectNames) ?? false
    }

    /// The name a lesson's subject is shown by: the full name when chosen and known, else the
    /// abbreviation the timetable gives.
    public func subject(of lesson: Lesson) -> String {
        subject(lesson.subject, fullName: lesson.subjectFullName)
    }

    /// A subject's name as shown: `fullName` when chosen and known, else `name`.
    public func subject(_ name: String, fullName: String?) -> String {
        guard fullSubjectNames, let fullName, !fullName.isEmpty else { return name }
        return fullName
    }
}
