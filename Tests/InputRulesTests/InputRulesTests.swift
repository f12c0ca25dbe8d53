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

    @Test func noncharactersAreTheLastTwoOfEveryPlaneAndFDD0ToFDEF() {
        for value: UInt32 in [0xFFFE, 0xFFFF, 0xFDD0, 0xFDEF, 0x1FFFE, 0x10FFFF] {
            #expect(TextRules.isNoncharacter(Unicode.Scalar(value) ?? "a"), "\(value)")
        }
        for value: UInt32 in [0x41, 0xFDCF, 0xFDF0, 0xFFFD, 0x1F3A7, 0xFEFF] {
            #expect(!TextRules.isNoncharacter(Unicode.Scalar(value) ?? "\u{FFFE}"), "\(value)")
        }
    }

    /// What a radio source says is kept rather than refused: one line, without what no title holds.
    @Test func textThatCannotBeRefusedIsCleanedToOneLine() {
        #expect(TextRules.cleaned("Кино — Группа крови", limit: 500) == "Кино — Группа крови")
        #expect(TextRules.cleaned("  Guns N' Roses  ", limit: 500) == "Guns N' Roses")
        // C0 and C1 controls, bidi overrides and noncharacters are left out; a NUL cuts nothing.
        #expect(TextRules.cleaned("Ctl\u{1}\u{2}X", limit: 500) == "CtlX")
        #expect(TextRules.cleaned("A\u{0}B", limit: 500) == "AB")
        #expect(TextRules.cleaned("a\u{7F}\u{85}b\u{9F}", limit: 500) == "a b")
        let nonCharacters = String(String.UnicodeScalarView([0xFFFE, 0xFFFF, 0xFDD0].compactMap(Unicode.Scalar.init)))
        #expect(TextRules.cleaned("\u{202E}evil\u{2066}" + nonCharacters, limit: 500) == "evil")
        // Line breaks, tabs, vertical tab and form feed are one space between words.
        #expect(TextRules.cleaned("Artist\r\n\r\nTitle", limit: 500) == "Artist Title")
        #expect(TextRules.cleaned("a\tb\u{B}c\u{C}d\u{2028}e", limit: 500) == "a b c d e")
        #expect(TextRules.cleaned("\n\u{1}\n", limit: 500).isEmpty)
        // Cut to the limit in code points, without a space left at the end.
        #expect(TextRules.cleaned("abc def", limit: 4) == "abc")
        #expect(TextRules.cleaned(String(repeating: "я", count: 600), limit: 500).unicodeScalars.count == 500)
        // Whatever it is given, what comes back keeps the rules of one line.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let scalars = (0..<Int.random(in: 0...40, using: &generator)).compactMap { _ in
                Unicode.Scalar(
                    Bool.random(using: &generator)
                        ? UInt32.random(in: 0...0x3000, using: &generator)
                        : UInt32.random(in: 0xFDC0...0x10FFFF, using: &generator))
            }
            var view = String.UnicodeScalarView()
            view.append(contentsOf: scalars)
            let cleaned = TextRules.cleaned(String(view), limit: 30)
            #expect(TextRules.problem(in: cleaned, limit: 30) == nil, "\(scalars)")
            #expect(!cleaned.unicodeScalars.contains(where: TextRules.isNoncharacter), "\(scalars)")
            #expect(TextRules.cleaned(cleaned, limit: 30) == cleaned)
        }
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
