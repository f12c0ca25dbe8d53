/// Seed 003's electives: a student of a speciality and year takes that year's normative subjects
/// and adds professional subjects of their speciality and free-choice ones (selective subjects of
/// their speciality, or any subject of another); for each they choose one of its groups.
public enum Electives {
    /// A subject the student takes, and which of its groups (0: not chosen yet).
    public struct Choice: Sendable, Hashable {
        public var subjectID: Int
        public var group: Int
        /// Added because the speciality and year make it compulsory; re-derived when they change.
        public var isNormative: Bool

        public init(subjectID: Int, group: Int = 0, isNormative: Bool = false) {
            self.subjectID = subjectID
            self.group = group
            self.isNormative = isNormative
        }
    }

    /// The most subjects one student may take.
    public static let maximumChoices = 60

    /// The timetable group of a subject's group: "294624-3" is group 3 of subject 294624.
    public static func groupName(subject: Int, group: Int) -> String { "\(subject)-\(group)" }

    /// A speciality's code, as seed 003 writes it before its name ("121. Інженерія …" → "121",
    /// "035.01 Українська філологія" → "035.01"); nil when it has none.
    public static func code(of speciality: String) -> String? {
        var code = speciality.prefix { $0 != " " }
        while code.hasSuffix(".") { code = code.dropLast() }
        guard code.first?.isNumber == true, code.allSatisfy({ $0.isNumber || $0 == "." || $0 == "-" }) else {
            return nil
        }
        return String(code)
    }

    /// The speciality a student means: the name itself, else the one speciality whose code is
    /// `text` or whose name begins with it (in any case).
    public static func speciality(_ text: String, among names: some Collection<String>) -> String? {
        if names.contains(text) { return text }
        let folded = SearchText.fold(text)
        let found = names.filter { code(of: $0) == text || SearchText.fold($0).hasPrefix(folded) }
        return found.count == 1 ? found.first : nil
    }

    /// The normative subjects of a speciality and year, by id.
    public static func normative(in catalogue: [ImportedSubject], speciality: String, year: Int) -> [ImportedSubject] {
        catalogue.filter { $0.kind == .normative && $0.speciality == speciality && $0.year == year }
            .sorted { $0.id < $1.id }
    }

    /// How a student of `speciality` in `year` may take `subject`: normative (their speciality and
    /// year), professional (a professional subject of their speciality), free choice (a selective
    /// subject of their speciality, or any subject of another); nil for their speciality's
    /// normative subjects of other years.
    public static func kind(of subject: ImportedSubject, speciality: String, year: Int) -> ImportedSubject.Kind? {
        guard subject.speciality == speciality else { return .freeChoice }
        switch subject.kind {
        case .normative: return subject.year == year ? .normative : nil
        case .professional: return .professional
        case .freeChoice: return .freeChoice
        }
    }

    /// The choices after the speciality or year changed: the new normative set (with the groups
    /// already chosen for subjects that stay normative), and every other choice kept.
    public static func rederive(
        _ choices: [Choice], catalogue: [ImportedSubject], speciality: String, year: Int
    ) -> [Choice] {
        let chosen = Dictionary(choices.map { ($0.subjectID, $0) }) { first, _ in first }
        let normative = normative(in: catalogue, speciality: speciality, year: year)
        let normativeIDs = Set(normative.map(\.id))
        var result = normative.map { Choice(subjectID: $0.id, group: chosen[$0.id]?.group ?? 0, isNormative: true) }
        for choice in choices where !choice.isNormative && !normativeIDs.contains(choice.subjectID) {
            result.append(choice)
        }
        return result
    }
}
