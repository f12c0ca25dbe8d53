import Foundation
import Testing

@testable import CampusServer

/// Templates are parsed when a page first wants them, not at start: that a template parses in
/// every language is asked here, and a page finds every partial and layout it names.
@Suite struct LocalizedTemplatesTests {
    let templates: LocalizedTemplates

    init() throws {
        let resources = try Resources.locate()
        let languages = try LocalizedTemplates.languages(directory: resources.translations, institutionDefault: "ru")
        templates = try LocalizedTemplates(
            directory: resources.templates, scripts: resources.staticFiles, languages: languages)
    }

    @Test(arguments: ["en", "ru", "uk", "be", "bg"])
    func everyTemplateParsesInEveryLanguage(_ language: String) throws {
        #expect(templates.languages.codes.contains(language))
        try templates.parseAll(language)
    }

    @Test func theScriptsMessagesAreTheirCallsOfT() {
        let script = #"""
            t("Saved."); alert("Not this"); $t("Nor this"); x.t("Nor."); const at = t("Kept {n} of {m}", {n, m});
            t("A \"quoted\" word") + t("") + t("Не ASCII") + щt("Not after a letter");
            t("Not closed
            """#
        #expect(
            LocalizedTemplates.scriptMessageKeys(in: script) == [
                "Saved.", "Nor.", "Kept {n} of {m}", "A \"quoted\" word", "Не ASCII",
            ])
    }

    @Test func aTemplateNamesItsPartialsAndItsLayout() {
        let text = "{{<layout}}{{$main}}{{> listen-nav}}{{>task-row}}{{#t}}Hi{{/t}}{{/main}}{{/layout}} {{ name }}"
        #expect(LocalizedTemplates.namedTemplates(in: text) == ["layout", "listen-nav", "task-row"])
        #expect(LocalizedTemplates.namedTemplates(in: "no tags {{x}}").isEmpty)
    }

    @Test func aPageIsRenderedWithThePartialsItNamesInTheLanguageAsked() throws {
        let page = PageRenderer.ErrorPage(
            title: "Не найдено", detail: "Нет такой страницы", status: 404, institution: "БГУИР", year: 2026,
            lang: "bg")
        let html = try #require(templates.render(page, withTemplate: "error", language: "bg"))
        #expect(html.contains("Не найдено"))
        #expect(html.contains("lang=\"bg\""))
        #expect(templates.render(page, withTemplate: "no-such-template", language: "bg") == nil)
    }
}
