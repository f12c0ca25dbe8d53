import Foundation
import Localization
import Mustache
import NIOConcurrencyHelpers

/// The web app's templates once per language Campus speaks: each template's marked messages
/// (`{{#t}}…{{/t}}`) are replaced by their translations when the server starts, so a page costs
/// the same to render in every language.
struct LocalizedTemplates: Sendable {
    let languages: Languages
    /// The templates' text, by name.
    private let sources: [(name: String, text: String)]
    /// Each language's templates, made the first time a page is wanted in it (the institution's
    /// at start-up): making all five at start-up doubled the time to the first answer.
    private let libraries = NIOLockedValueBox<[String: MustacheLibrary]>([:])
    /// The messages the scripts show (`t("…")` in `static/*.js`), translated, by language: the
    /// layout carries them for `window.campus.t`.
    private let scriptMessages: [String: [ScriptMessage]]

    init(directory: String, scripts: String, languages: Languages) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory)
            .filter { $0.hasSuffix(".mustache") }.sorted()
        sources = try names.map { name in
            (
                String(name.dropLast(".mustache".count)),
                try String(contentsOfFile: directory + "/" + name, encoding: .utf8)
            )
        }
        let scriptFiles = try FileManager.default.contentsOfDirectory(atPath: scripts).filter { $0.hasSuffix(".js") }
        let keys = try scriptFiles.sorted().flatMap { file in
            Self.scriptMessageKeys(in: try String(contentsOfFile: scripts + "/" + file, encoding: .utf8))
        }
        var scriptMessages: [String: [ScriptMessage]] = [:]
        for code in languages.codes where code != "en" {
            guard let translator = languages.translator(code) else { continue }
            scriptMessages[code] = Array(Set(keys)).sorted().compactMap { key in
                translator.translation(of: key).map { ScriptMessage(key: key, text: $0) }
            }
        }
        self.languages = languages
        self.scriptMessages = scriptMessages
        // The institution's language and English now, so that a broken template stops the start.
        _ = try library(languages.institutionDefault)
        _ = try library("en")
    }

    /// The templates in a language, made now if they were not yet.
    private func library(_ code: String) throws -> MustacheLibrary {
        try libraries.withLockedValue { libraries in
            if let library = libraries[code] { return library }
            let translator = languages.translator(code) ?? .source
            var library = MustacheLibrary()
            for (name, text) in sources {
                try library.register(TemplateText.translated(text, by: translator), named: name)
            }
            libraries[code] = library
            return library
        }
    }

    /// The translated messages of the scripts in a language (none for English).
    func scriptMessages(_ language: String) -> [ScriptMessage] { scriptMessages[language] ?? [] }

    /// The text of every `t("…")` in a script (double quotes, no escapes but `\"`).
    static func scriptMessageKeys(in script: String) -> [String] {
        var keys: [String] = []
        var rest = script[...]
        while let call = rest.range(of: "t(\"") {
            let before = rest[..<call.lowerBound].last
            rest = rest[call.upperBound...]
            guard before.map({ !$0.isLetter && !$0.isNumber && $0 != "_" && $0 != "$" }) ?? true else { continue }
            var text = ""
            var escaped = false
            var closed = false
            for character in rest {
                rest = rest.dropFirst()
                if escaped {
                    text.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    closed = true
                    break
                } else if character == "\n" {
                    break
                } else {
                    text.append(character)
                }
            }
            if closed, !text.isEmpty { keys.append(text) }
        }
        return keys
    }

    /// Renders a template in a language (English if Campus does not speak it).
    func render(_ object: Any, withTemplate name: String, language: String) -> String? {
        (try? library(language))?.render(object, withTemplate: name)
    }
}

/// A script's message and its translation, which the layout carries for `window.campus.t`.
struct ScriptMessage: Sendable {
    var key: String
    var text: String
}

extension LocalizedTemplates {
    /// The catalogues in `directory` (every `*.po` file) with the institution's language.
    static func languages(directory: String, institutionDefault: String) throws -> Languages {
        let files = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".po") }.sorted()
        // Read side by side: the catalogues are most of the start-up's work.
        let results = NIOLockedValueBox([Result<Catalogue, any Error>?](repeating: nil, count: files.count))
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            let result = Result<Catalogue, any Error> {
                try Catalogue(
                    file: files[index], text: String(contentsOfFile: directory + "/" + files[index], encoding: .utf8))
            }
            results.withLockedValue { $0[index] = result }
        }
        let catalogues = try results.withLockedValue { $0 }.compactMap { try $0?.get() }
        return try Languages(catalogues, institutionDefault: institutionDefault)
    }
}
