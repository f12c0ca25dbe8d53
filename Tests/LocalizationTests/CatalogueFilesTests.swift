import Foundation
import Testing

@testable import Localization

/// The real catalogues (Sources/CampusServer/Resources/translations): every language has every
/// message of campus.pot, with every plural form it needs and the same placeholders, and nothing
/// else; every template's marked message is in campus.pot.
@Suite struct CatalogueFilesTests {
    static let resources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/CampusServer/Resources")
    static let translations = resources.appendingPathComponent("translations")

    static func text(_ name: String) throws -> String {
        try String(contentsOf: translations.appendingPathComponent(name), encoding: .utf8)
    }

    static let languageFiles: [String] = {
        ((try? FileManager.default.contentsOfDirectory(atPath: translations.path)) ?? [])
            .filter { $0.hasSuffix(".po") }.sorted()
    }()

    static func key(_ entry: PortableObject.Entry) -> Catalogue.Key { Catalogue.Key(entry.id, context: entry.context) }

    /// `{name}` and `{{name}}` placeholders, and HTML tags, sorted: what a translation must keep.
    static func placeholders(_ text: String) -> [String] {
        var found: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(where: { $0 == "{" || $0 == "<" }) {
            let closer: Character = rest[open] == "{" ? "}" : ">"
            guard let close = rest[open...].firstIndex(of: closer) else { break }
            var end = rest.index(after: close)
            if rest[open] == "{", end < rest.endIndex, rest[end] == "}" { end = rest.index(after: end) }
            found.append(String(rest[open..<end]))
            rest = rest[end...]
        }
        return found.sorted()
    }

    @Test func thereAreTheFourLanguagesBesideEnglish() {
        #expect(Self.languageFiles == ["be.po", "bg.po", "ru.po", "uk.po"])
    }

    @Test(arguments: languageFiles)
    func everyMessageTranslatedWithItsFormsAndPlaceholders(file: String) throws {
        let source = try PortableObject(Self.text("campus.pot"))
        let catalogueText = try Self.text(file)
        let translated = try PortableObject(catalogueText)
        let catalogue = try Catalogue(file: file, text: catalogueText)
        let sourceKeys = Set(source.entries.map(Self.key))
        let keys = Set(translated.entries.map(Self.key))
        let missing = sourceKeys.subtracting(keys).map { "\($0.context ?? "")|\($0.id)" }.sorted()
        let unused = keys.subtracting(sourceKeys).map { "\($0.context ?? "")|\($0.id)" }.sorted()
        #expect(missing.isEmpty, "\(file) lacks \(missing.prefix(20))")
        #expect(unused.isEmpty, "\(file) has messages the code no longer marks: \(unused.prefix(20))")
        for entry in translated.entries {
            let label = "\(file): \(entry.context.map { "[\($0)] " } ?? "")\(entry.id.prefix(60))"
            #expect(!entry.isFuzzy, "\(label) is fuzzy")
            #expect(entry.translations.allSatisfy { !$0.isEmpty }, "\(label) is not translated")
            if entry.pluralID != nil {
                #expect(
                    entry.translations.count == catalogue.rule.count, "\(label) needs \(catalogue.rule.count) forms")
            }
            let expected = Self.placeholders(entry.id)
            for form in entry.translations where !form.isEmpty {
                #expect(Self.placeholders(form) == expected, "\(label): placeholders differ in “\(form)”")
                #expect(
                    form.filter { $0 == "\"" }.count == entry.id.filter { $0 == "\"" }.count,
                    "\(label): a straight double quote would end an HTML attribute")
            }
        }
    }

    /// The server reads a catalogue's header at start and its messages when first used, without
    /// comments: what it reads is what the whole file says.
    @Test(arguments: languageFiles)
    func aCatalogueReadWhenFirstUsedIsTheWholeOne(file: String) throws {
        let whole = try Catalogue(file: file, text: Self.text(file))
        let lazy = try Catalogue.reading(path: Self.translations.appendingPathComponent(file).path)
        #expect(lazy.code == whole.code && lazy.name == whole.name && lazy.rule.count == whole.rule.count)
        #expect(lazy.count == whole.count && lazy.count > 2000)
        for entry in try PortableObject(Self.text(file)).entries {
            let key = Self.key(entry)
            #expect(lazy.translation(key) == whole.translation(key))
            #expect(lazy.translation(key, count: 3) == whole.translation(key, count: 3))
        }
    }

    @Test func everyTemplatesMessageIsInTheSourceCatalogue() throws {
        let source = Set(try PortableObject(Self.text("campus.pot")).entries.map(Self.key))
        let folder = Self.resources.appendingPathComponent("templates")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter {
            $0.hasSuffix(".mustache")
        }
        #expect(names.count > 30)
        for name in names {
            let template = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
            #expect(TemplateText.unclosed(in: template).isEmpty, "\(name) has {{#t}} without {{/t}}")
            for key in TemplateText.messages(in: template) {
                #expect(
                    source.contains(key), "\(name): “\(key.id)” is not in campus.pot (run scripts/extract-messages)")
                #expect(!key.id.contains("{{#") && !key.id.contains("{{^"), "\(name): a section inside “\(key.id)”")
            }
        }
        for key in Translator.ownMessages { #expect(source.contains(key), "\(key.id) is not in campus.pot") }
    }

    @Test(arguments: ["ru", "uk", "be"])
    func eastSlavicPluralsForEveryCount(code: String) throws {
        let t = Translator(try Catalogue(file: "\(code).po", text: Self.text("\(code).po")))
        let forms = [1, 2, 5, 11, 21, 22, 25].map { t.plural("{count} participant", "{count} participants", $0) }
        // one: 1 and 21 alike; few: 2 and 22 alike; many: 5, 11 and 25 alike; three different words.
        let word = forms.map { $0.split(separator: " ").dropFirst().joined(separator: " ") }
        #expect(word[0] == word[4] && word[1] == word[5] && word[2] == word[3] && word[2] == word[6], "\(forms)")
        #expect(Set([word[0], word[1], word[2]]).count == 3, "\(forms)")
        #expect(forms[0].hasPrefix("1 ") && forms[6].hasPrefix("25 "))
        #expect(t.number(2.734, fractionDigits: 2) == "2,73")
    }

    @Test func bulgarianHasTwoForms() throws {
        let t = Translator(try Catalogue(file: "bg.po", text: Self.text("bg.po")))
        let forms = [1, 2, 5, 11, 21].map { t.plural("{count} participant", "{count} participants", $0) }
        #expect(forms[1].dropFirst(2) == forms[2].dropFirst(2) && forms[0].dropFirst(2) != forms[1].dropFirst(2))
    }
}
