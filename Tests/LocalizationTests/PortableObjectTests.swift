import Foundation
import Testing

@testable import Localization

@Suite struct PortableObjectTests {
    static let sample = #"""
        # Translator's note at the top
        msgid ""
        msgstr ""
        "Language: ru\n"
        "Plural-Forms: nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);\n"
        "X-Language-Name: Русский\n"

        #. The button that signs in
        #: Resources/templates/login.mustache
        msgid "Sign in"
        msgstr "Войти"

        #, python-brace-format
        msgctxt "button"
        msgid "Save {name}"
        msgstr ""
        "Сохранить "
        "{name}"

        msgid "{count} participant"
        msgid_plural "{count} participants"
        msgstr[0] "{count} участник"
        msgstr[1] "{count} участника"
        msgstr[2] "{count} участников"

        #, fuzzy
        msgid "Old"
        msgstr "Старое"

        msgid "Quote \"and\" line\nfeed\\"
        msgstr "Кавычка \"и\"\tтаб"

        #~ msgid "Gone"
        #~ msgstr "Ушло"
        """#

    @Test func readsEntriesHeadersCommentsAndEscapes() throws {
        let file = try PortableObject(Self.sample)
        #expect(file.headers["Language"] == "ru")
        #expect(file.headers["X-Language-Name"] == "Русский")
        #expect(file.entries.count == 5)
        let signIn = file.entries[0]
        #expect(signIn.id == "Sign in" && signIn.translations == ["Войти"])
        #expect(signIn.comments == ["The button that signs in"])
        #expect(signIn.references == ["Resources/templates/login.mustache"])
        let save = file.entries[1]
        #expect(save.context == "button" && save.translations == ["Сохранить {name}"])
        #expect(save.flags == ["python-brace-format"])
        #expect(file.entries[2].pluralID == "{count} participants")
        #expect(file.entries[2].translations.count == 3)
        #expect(file.entries[3].isFuzzy)
        #expect(file.entries[4].id == "Quote \"and\" line\nfeed\\")
        #expect(file.entries[4].translations == ["Кавычка \"и\"\tтаб"])
    }

    @Test(arguments: [
        ("msgid \"a\"\nmsgstr \"b", 2),
        ("msgid \"a\"\nmsgstr \"b\" \"c\"", 2),
        ("msgstr \"b\"", 1),
        ("msgid \"a\"\nmsgid \"b\"", 2),
        ("msgid \"a\"\nmsgstr[0] \"b\"\n", 3),
        ("\"stray\"", 1),
        ("msgfoo \"a\"", 1),
        ("msgid \"a\\q\"\nmsgstr \"\"", 1),
        ("msgid \"a\"", 1),
    ])
    func refusesBrokenFilesWithTheLine(text: String, line: Int) {
        #expect(throws: PortableObject.Unreadable.self) { try PortableObject(text) }
        do {
            _ = try PortableObject(text)
        } catch {
            #expect(error.line <= line)
        }
    }

    @Test func aCatalogueLeavesOutUntranslatedAndFuzzyEntries() throws {
        let catalogue = try Catalogue(file: "ru.po", text: Self.sample)
        #expect(catalogue.code == "ru" && catalogue.name == "Русский")
        #expect(catalogue.translation(.init("Sign in")) == "Войти")
        #expect(catalogue.translation(.init("Old")) == nil)
        #expect(catalogue.translation(.init("Save {name}")) == nil)
        #expect(catalogue.translation(.init("Save {name}", context: "button")) == "Сохранить {name}")
        #expect(catalogue.translation(.init("{count} participant"), count: 22) == "{count} участника")
    }

    @Test func aCatalogueReadWhenFirstUsedSaysWhatTheWholeOneSays() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("po-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        func write(_ name: String, _ text: String) throws -> String {
            let path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        // Its header now, its messages when first looked up: the same as read at once.
        let lazy = try Catalogue.reading(path: write("ru.po", Self.sample))
        #expect(lazy.code == "ru" && lazy.name == "Русский" && lazy.rule.count == 3)
        #expect(lazy.translation(.init("Sign in")) == "Войти")
        #expect(lazy.translation(.init("Old")) == nil)
        #expect(lazy.translation(.init("{count} participant"), count: 22) == "{count} участника")
        #expect(lazy.count == (try Catalogue(file: "ru.po", text: Self.sample)).count)
        // A file that is only its header, with no blank line after it (read whole).
        let header = String(Self.sample[..<(Self.sample.range(of: "\n\n")?.lowerBound ?? Self.sample.endIndex)])
        let bare = try Catalogue.reading(path: write("bare.po", header))
        #expect(bare.code == "ru" && bare.count == 0)
        // A broken header is refused at once; broken messages leave the English text.
        #expect(throws: Catalogue.Unusable.self) {
            try Catalogue.reading(path: write("x.po", "msgid \"a\"\nmsgstr \"b\""))
        }
        #expect(throws: Catalogue.Unusable.self) {
            try Catalogue.reading(path: directory.appendingPathComponent("none.po").path)
        }
        let wrongForms = Self.sample.replacingOccurrences(of: "nplurals=3", with: "nplurals=2")
        let broken = try Catalogue.reading(path: write("broken.po", wrongForms))
        #expect(broken.code == "ru" && broken.translation(.init("Sign in")) == nil)
    }

    @Test func aCatalogueNeedsItsHeaders() {
        #expect(throws: Catalogue.Unusable.self) { try Catalogue(file: "x.po", text: "msgid \"a\"\nmsgstr \"b\"") }
        let wrongForms = Self.sample.replacingOccurrences(of: "nplurals=3", with: "nplurals=2")
        #expect(throws: Catalogue.Unusable.self) { try Catalogue(file: "x.po", text: wrongForms) }
    }
}
