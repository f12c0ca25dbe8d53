import Foundation
import Localization
import Testing

@testable import InputRules

@Suite struct InputRulesTests {
    @Test func controlCharactersAreC0C1AndBidiOverrides() {
        for scalar in ["\u{0}", "\u{1F}", "\u{7F}", "\u{85}", "\u{9F}", "\u{202A}", "\u{202E}", "\u{2066}", "\u{2069}"]
        {
            #expect(TextRules.firstControl(in: "a\(scalar)b") != nil, "\(scalar.unicodeScalars.first!.value)")
        }
        for text in ["Киринович И. Ф.", "Café", "\u{200E}left-to-right mark", "emoji 🎧", "tab\u{A0}nbsp"] {
            #expect(TextRules.firstControl(in: text) == nil, "\(text)")
        }
        #expect(TextRules.firstControl(in: "two\nlines\tand\r\n", multiline: true) == nil)
        #expect(TextRules.firstControl(in: "two\nlines") == "\n")
        #expect(TextRules.firstControl(in: "nul\u{0}", multiline: true) == "\u{0}")
    }

    @Test func problemsSayWhatIsWrong() {
        #expect(TextRules.problem(in: "abc", limit: 3) == nil)
        let long = TextRules.problem(in: "abcd", limit: 3)
        #expect(long == Phrase("{field} has {length} characters; at most {limit}.", ["length": "4", "limit": "3"]))
        // Code points, as JSON Schema counts: "é" written as e + combining accent is two.
        #expect(TextRules.problem(in: "e\u{301}e\u{301}", limit: 3) == long)
        var control = TextRules.problem(in: "a\u{0}", limit: 10)
        control?.values["field"] = "name"
        #expect(control?.text == "name contains a control character (U+0000), which is not allowed.")
        #expect(TextRules.codePoint("\u{202E}") == "U+202E")
    }

    @Test func datesFrom1900To2200() {
        #expect(DateRules.isSupported(Date(timeIntervalSince1970: -2_208_988_800)))  // 1900-01-01T00:00Z
        #expect(DateRules.isSupported(Date(timeIntervalSince1970: -2_209_039_200)))  // 1900-01-01T00:00+14:00
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: -2_209_039_201)))
        #expect(DateRules.isSupported(Date(timeIntervalSince1970: 7_289_697_599)))  // 2200-12-31T23:59:59-12:00
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: 7_289_697_600)))
        #expect(!DateRules.isSupported(.distantPast) && !DateRules.isSupported(.distantFuture))
    }
}
