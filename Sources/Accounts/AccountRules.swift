import InputRules

/// The rules for the fields of an account, shared by the API, the web app and the CLI.
public enum AccountRules {
    public static let emailMaxLength = 254
    public static let passwordMinLength = 8
    public static let passwordMaxLength = 128
    public static let nameMaxLength = 100
    public static let groupMaxLength = 32
    public static let subgroups: ClosedRange<Int> = 0...9

    /// Checks an email address and returns it trimmed. The address keeps the case the user typed;
    /// ``emailKey(_:)`` is what makes two spellings the same account.
    public static func email(_ raw: String, field: String = "email") throws(FieldProblem) -> String {
        let email = raw.trimmed
        guard !email.isEmpty else { throw FieldProblem(field: field, detail: "Enter an email address.") }
        guard email.unicodeScalars.count <= emailMaxLength else {
            throw FieldProblem(
                field: field, detail: "An email address has at most {maximum} characters.",
                ["maximum": String(emailMaxLength)])
        }
        guard isPlausibleEmail(email) else {
            throw FieldProblem(
                field: field, detail: "“{email}” is not an email address; it should look like name@example.org.",
                ["email": email])
        }
        return email
    }

    /// The form of an email address used to find its account: two addresses that differ only in
    /// letter case belong to the same account.
    public static func emailKey(_ email: String) -> String { email.trimmed.lowercased() }

    /// Checks a new password. Lengths count Unicode code points, as JSON Schema does.
    public static func newPassword(_ password: String, field: String = "password") throws(FieldProblem) {
        guard password.unicodeScalars.count >= passwordMinLength else {
            throw FieldProblem(
                field: field, detail: "A password needs at least {minimum} characters.",
                ["minimum": String(passwordMinLength)])
        }
        guard password.unicodeScalars.count <= passwordMaxLength else {
            throw FieldProblem(
                field: field, detail: "A password has at most {maximum} characters.",
                ["maximum": String(passwordMaxLength)])
        }
    }

    /// Checks a first or last name (`field` "lastName" is the last name) and returns it trimmed.
    public static func name(_ raw: String, field: String) throws(FieldProblem) -> String {
        let name = raw.trimmed
        let isLast = field == "lastName"
        let maximum = ["maximum": String(nameMaxLength)]
        guard !name.isEmpty else {
            throw isLast
                ? FieldProblem(field: field, detail: "Enter your last name.")
                : FieldProblem(field: field, detail: "Enter your first name.")
        }
        guard raw.unicodeScalars.count <= nameMaxLength else {
            throw isLast
                ? FieldProblem(field: field, detail: "A last name has at most {maximum} characters.", maximum)
                : FieldProblem(field: field, detail: "A first name has at most {maximum} characters.", maximum)
        }
        guard !raw.containsControlCharacters else {
            throw isLast
                ? FieldProblem(field: field, detail: "A last name cannot contain control characters.")
                : FieldProblem(field: field, detail: "A first name cannot contain control characters.")
        }
        return name
    }

    /// Checks a study group name such as "151004"; an empty one means "no group".
    public static func group(_ raw: String, field: String = "group") throws(FieldProblem) -> String? {
        guard raw.unicodeScalars.count <= groupMaxLength else {
            throw FieldProblem(
                field: field, detail: "A group name has at most {maximum} characters.",
                ["maximum": String(groupMaxLength)])
        }
        guard !raw.containsControlCharacters else {
            throw FieldProblem(field: field, detail: "A group name cannot contain control characters.")
        }
        let group = raw.trimmed
        return group.isEmpty ? nil : group
    }

    /// Checks a subgroup number; 0 means the whole group.
    public static func subgroup(_ value: Int, field: String = "subgroup") throws(FieldProblem) -> Int {
        guard subgroups.contains(value) else {
            throw FieldProblem(
                field: field, detail: "The subgroup is a number from {minimum} (whole group) to {maximum}.",
                ["minimum": String(subgroups.lowerBound), "maximum": String(subgroups.upperBound)])
        }
        return value
    }

    /// A practical check of an address's shape (RFC 5321 dot-atoms): what a mail server would accept.
    static func isPlausibleEmail(_ email: String) -> Bool {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2 else { return false }
        let local = parts[0]
        let domain = parts[1]
        guard (1...64).contains(local.utf8.count), (1...253).contains(domain.utf8.count) else { return false }
        let atext = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'*+-/=?^_`{|}~")
        let localAtoms = local.split(separator: ".", omittingEmptySubsequences: false)
        guard localAtoms.allSatisfy({ !$0.isEmpty && $0.allSatisfy { atext.contains($0) } }) else { return false }
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        let labelCharacters = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-")
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.allSatisfy { labelCharacters.contains($0) }
                && label.first != "-" && label.last != "-"
        }
    }
}

extension String {

    /// The text without leading and trailing white space and invisible characters (a name of
    /// nothing but U+200B or U+FEFF is no name): ``TextRules/trimmed(_:)``.
    public var trimmed: String { TextRules.trimmed(self) }
}
