import Foundation
import Timetable

/// Room names as lessons and the auditory list write them.
extension IIS {
    // MARK: Rooms

    /// A lesson's room string: "604-5 к." is room 604 in building 5; "213a-4 к." (Latin a) is
    /// 213а; "epam 104 к1-2 к." is a room off campus credited to building 2. A string without a
    /// building is a room of its own name.
    public static func room(_ text: String) -> ImportedRoom? {
        guard let trimmed = nonEmpty(text) else { return nil }
        // "<room>-<building> к." read from the end: an optional ".", "к", spaces, the digits of
        // the building, spaces, "-".
        var rest = Substring(trimmed)
        if rest.last == "." { rest.removeLast() }
        if rest.last == "к" || rest.last == "К" {
            rest.removeLast()
            while rest.last?.isWhitespace == true { rest.removeLast() }
            let digits = rest.reversed().prefix { $0.isASCII && $0.isNumber }
            if (1...3).contains(digits.count), let building = Int(String(digits.reversed())) {
                rest.removeLast(digits.count)
                while rest.last?.isWhitespace == true { rest.removeLast() }
                if rest.last == "-" {
                    rest.removeLast()
                    while rest.last?.isWhitespace == true { rest.removeLast() }
                    if !rest.isEmpty { return room(named: String(rest), building: building) }
                }
            }
        }
        return room(named: trimmed, building: nil)
    }

    /// A room name within a building, with its floor: the first digit of a number of three or
    /// more digits ("604" → 6); numbers of one or two digits are on floor 0 ("04", "31"). A name
    /// that does not start with a digit is off campus.
    static func room(named raw: String, building: Int?) -> ImportedRoom? {
        let name = normalizedRoomName(raw.trimmingCharacters(in: .whitespaces))
        guard let first = name.first else { return nil }
        guard first.isASCII, first.isNumber else {
            return ImportedRoom(key: RoomKey(name: name, building: building), floor: nil, isOffCampus: true)
        }
        let digits = name.prefix { $0.isASCII && $0.isNumber }
        let floor = digits.count >= 3 ? digits.first.flatMap { Int(String($0)) } : 0
        return ImportedRoom(key: RoomKey(name: name, building: building), floor: floor, isOffCampus: false)
    }

    /// Latin letters that look like Cyrillic ones, as typed after a room number ("213a" → "213а").
    static func normalizedRoomName(_ name: String) -> String {
        guard name.first?.isNumber == true else { return name }
        let digits = name.prefix { $0.isNumber }
        let rest = name.dropFirst(digits.count)
        guard rest.count <= 2 else { return name }
        return String(digits) + String(rest.map { lookalikes[$0] ?? $0 })
    }

    /// Made once: a dictionary literal in the function was built again for every room of every
    /// lesson (a tenth of reading a schedule).
    private static let lookalikes: [Character: Character] = [
        "a": "а", "b": "б", "e": "е", "o": "о", "c": "с", "p": "р", "x": "х", "k": "к", "m": "м", "t": "т",
        "A": "А", "B": "В", "E": "Е", "O": "О", "C": "С", "P": "Р", "X": "Х", "K": "К", "M": "М", "T": "Т",
    ]
}
