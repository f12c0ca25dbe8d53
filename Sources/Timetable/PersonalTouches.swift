/// A user's own words and colours in the timetable (seed 000 lets each user edit them): a private
/// nickname for a group, shown wherever that group appears for them, and a colour for each lesson
/// type. Group names and lesson types stay as the institution wrote them for everyone else.
public enum PersonalTouches {
    /// The longest nickname, in characters.
    public static let nicknameLength = 50
    /// The most nicknames and colours one user keeps.
    public static let limit = 200

    /// Whether a text is a colour as lesson types have them: `#e08a1e`.
    public static func isColour(_ text: String) -> Bool {
        text.utf8.count == 7 && text.hasPrefix("#") && text.dropFirst().allSatisfy(\.isHexDigit)
    }

    /// A group as a user reads it: their nickname with the group's name, or the name alone.
    public static func groupName(_ name: String, nicknames: [String: String]) -> String {
        nicknames[name].map { "\($0) (\(name))" } ?? name
    }
}
