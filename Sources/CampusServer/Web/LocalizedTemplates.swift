import Foundation
import Localization
import Mustache
import NIOConcurrencyHelpers

/// The web app's templates once per language Campus speaks: each template's marked messages
/// (`{{#t}}…{{/t}}`) are replaced by their translations before it is parsed, the first time it is
/// used in that language, so a page costs the same to render in every language.
struct LocalizedTemplates: Sendable {
    let languages: Languages
    /// The templates' text, by name.
    private let sources: [String: String]
    /// Each language's templates, each parsed the first time a page that uses it is wanted in
    /// that language (with the partials and the layout it names): parsing all of them in the
    /// institution's language and English was half the start's CPU, and a server parses only the
    /// pages it serves.
    private let libraries = NIOLockedValueBox<[String: Library]>([:])
    /// The messages the scripts show (`t("…")` in `static/*.js`), sorted: the layout carries
    /// their translations for `window.campus.t`.
    private let scriptKeys: [String]
    /// The scripts' messages translated, by language, each made when a page in that language
    /// first wants them (a catalogue is read when first used).
    private let scriptMessages = NIOLockedValueBox<[String: [ScriptMessage]]>([:])

    init(directory: String, scripts: String, languages: Languages) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".mustache") }
        sources = Dictionary(
            uniqueKeysWithValues: try names.map { name in
                (
                    String(name.dropLast(".mustache".count)),
                    try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
                )
            })
        let scriptFiles = try FileManager.default.contentsOfDirectory(atPath: scripts).filter { $0.hasSuffix(".js") }
        let keys = try scriptFiles.sorted().flatMap { file in
            Self.scriptMessageKeys(in: try String(contentsOfFile: scripts + "/" + file, encoding: .utf8))
        }
        self.languages = languages
        self.scriptKeys = Array(Set(keys)).sorted()
    }

    /// A language's templates as far as they are parsed.
    private struct Library {
        var templates = MustacheLibrary()
        var parsed: Set<String> = []
    }

    /// The templates in a language with `name` and every template it names parsed, now if they
    /// were not yet.
    private func library(_ code: String, for name: String) throws -> MustacheLibrary {
        try libraries.withLockedValue { libraries in
            var library = libraries[code] ?? Library()
            var wanted = [name]
            let translator = languages.translator(code) ?? .source
            while let next = wanted.popLast() {
                guard !library.parsed.contains(next), let text = sources[next] else { continue }
                try library.templates.register(TemplateText.translated(text, by: translator), named: next)
                library.parsed.insert(next)
                wanted += Self.namedTemplates(in: text)
            }
            libraries[code] = library
            return library.templates
        }
    }

    /// Parses every template in a language: a template that does not parse fails here (the
    /// tests ask this of every language), not on the page that first uses it.
    func parseAll(_ language: String) throws {
        for name in sources.keys.sorted() { _ = try library(language, for: name) }
    }

    /// The templates a template names: its partials (`{{> name}}`) and its parent (`{{< layout}}`).
    static func namedTemplates(in text: String) -> [String] {
        var names: [String] = []
        let bytes = Array(text.utf8)
        var at = 0
        while at + 3 < bytes.count {
            guard bytes[at] == UInt8(ascii: "{"), bytes[at + 1] == UInt8(ascii: "{"),
                bytes[at + 2] == UInt8(ascii: ">") || bytes[at + 2] == UInt8(ascii: "<")
            else {
                at += 1
                continue
            }
            var end = at + 3
            while end + 1 < bytes.count, !(bytes[end] == UInt8(ascii: "}") && bytes[end + 1] == UInt8(ascii: "}")) {
                end += 1
            }
            let name = String(decoding: bytes[(at + 3)..<end], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if !name.isEmpty { names.append(name) }
            at = end
        }
        return names
    }

    /// The translated messages of the scripts in a language (none for English).
    func scriptMessages(_ language: String) -> [ScriptMessage] {
        guard language != "en", let translator = languages.translator(language) else { return [] }
        return scriptMessages.withLockedValue { made in
            if let messages = made[language] { return messages }
            let messages = scriptKeys.compactMap { key in
                translator.translation(of: key).map { ScriptMessage(key: key, text: $0) }
            }
            made[language] = messages
            return messages
        }
    }

    /// The text of every `t("…")` in a script (double quotes, no escapes but `\"`).
    static func scriptMessageKeys(in script: String) -> [String] {
        // Read as UTF-8 bytes (the marks are ASCII): Foundation's range(of:), which counts in
        // UTF-16, took about 8 ms of every start on the scripts' text.
        let bytes = Array(script.utf8)
        var keys: [String] = []
        var at = 0
        while at + 2 < bytes.count {
            guard bytes[at] == UInt8(ascii: "t"), bytes[at + 1] == UInt8(ascii: "("),
                bytes[at + 2] == UInt8(ascii: "\"")
            else {
                at += 1
                continue
            }
            let before = at > 0 ? bytes[at - 1] : nil
            at += 3
            // `t(` itself, not the end of another name (`alert("…")`, `$t(`, or a letter beyond ASCII).
            if let before,
                before >= 0x80 || before == UInt8(ascii: "_") || before == UInt8(ascii: "$")
                    || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(before)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(before | 0x20)
            {
                continue
            }
            var text: [UInt8] = []
            var escaped = false
            var closed = false
            while at < bytes.count {
                let byte = bytes[at]
                at += 1
                if escaped {
                    text.append(byte)
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    closed = true
                    break
                } else if byte == 10 {
                    break
                } else {
                    text.append(byte)
                }
            }
            if closed, !text.isEmpty { keys.append(String(decoding: text, as: UTF8.self)) }
        }
        return keys
    }

    /// Renders a template in a language (English if Campus does not speak it).
    func render(_ object: Any, withTemplate name: String, language: String) -> String? {
        (try? library(language, for: name))?.render(object, withTemplate: name)
    }
}

/// A script's message and its translation, which the layout carries for `window.campus.t`.
struct ScriptMessage: Sendable {
    var key: String
    var text: String
}

extension LocalizedTemplates {
    /// The catalogues in `directory` (every `*.po` file) with the institution's language. Only
    /// their headers are read now; each one's messages when first looked up.
    static func languages(directory: String, institutionDefault: String) throws -> Languages {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".po") }.sorted()
        let catalogues = try files.map { file in try Catalogue.reading(path: directory + "/" + file) }
        return try Languages(catalogues, institutionDefault: institutionDefault)
    }
}
