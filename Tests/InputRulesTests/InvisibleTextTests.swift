import Testing

@testable import InputRules

/// Text that shows nothing is no text: a name of U+200B or U+FEFF alone is blank.
@Suite struct InvisibleTextTests {
    @Test func invisibleCharactersAreBlank() {
        for text in [
            "", " ", "\u{200B}", "\u{FEFF}", "\u{200B}\u{FEFF}\u{200B}", "\u{00AD}", "\u{2060}\u{200D}\u{200C}",
            "\u{3164}", "\u{115F}\u{1160}", "\u{FE0F}", "\u{180E}", "\u{A0}\u{2003}\u{3000}", "\u{E0041}",
        ] {
            #expect(TextRules.isBlank(text), "\(text.unicodeScalars.map { TextRules.codePoint($0) })")
            #expect(TextRules.trimmed(text).isEmpty, "\(text.unicodeScalars.map { TextRules.codePoint($0) })")
        }
        for text in ["Ann", "\u{200B}A", "❤️", "ـ", "\u{2800}x", "e\u{301}"] {
            #expect(!TextRules.isBlank(text), "\(text)")
        }
    }

    @Test func trimmingKeepsWhatShows() {
        #expect(TextRules.trimmed("\u{FEFF} Анна\u{200B} ") == "Анна")
        #expect(TextRules.trimmed("\u{200B}a\u{200B}b\u{200B}") == "a\u{200B}b")
        // An emoji keeps its variation selector and its joiners.
        #expect(TextRules.trimmed(" ❤️ ") == "❤️")
        #expect(TextRules.trimmed("👩‍💻\u{200B}") == "👩‍💻")
        #expect(TextRules.trimmed("two\nlines\n") == "two\nlines")
    }
}
