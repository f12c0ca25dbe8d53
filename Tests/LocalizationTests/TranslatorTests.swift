import Testing

@testable import Localization

@Suite struct TranslatorTests {
    static let russian = try! Catalogue(
        file: "ru.po",
        text: PortableObjectTests.sample + #"""

            msgctxt "decimal separator"
            msgid "."
            msgstr ","

            msgctxt "thousands separator"
            msgid ","
            msgstr " "

            msgctxt "month in a date"
            msgid "November"
            msgstr "ноября"

            msgctxt "format"
            msgid "{month} {day}, {year}"
            msgstr "{day} {month} {year} г."

            msgctxt "problem"
            msgid "{field} has {length} characters; at most {limit}."
            msgstr "{field}: {length} символов, а можно не больше {limit}."

            msgctxt "problem"
            msgid "The title of item {item}"
            msgstr "Название элемента {item}"
            """#)

    @Test func aPhraseIsSaidWithItsPartsInTheSameLanguage() {
        let phrase = Phrase(
            "{field} has {length} characters; at most {limit}.", ["length": "600", "limit": "500"],
            parts: ["field": Phrase("The title of item {item}", ["item": "3"])])
        #expect(phrase.text == "The title of item 3 has 600 characters; at most 500.")
        #expect(Translator(Self.russian)(phrase) == "Название элемента 3: 600 символов, а можно не больше 500.")
        // A part the catalogue lacks stays English inside the translated sentence.
        let untranslated = Phrase(
            "{field} has {length} characters; at most {limit}.", ["length": "5", "limit": "1"],
            parts: ["field": Phrase("The album tag")])
        #expect(Translator(Self.russian)(untranslated) == "The album tag: 5 символов, а можно не больше 1.")
        #expect(Translator(Self.russian)(Phrase("Not a message {x}", ["x": "1"])) == "Not a message 1")
    }

    @Test func pluralsPlaceholdersAndFallBackToEnglish() {
        let t = Translator(Self.russian)
        let counts = [1, 2, 5, 11, 21, 22, 25].map { t.plural("{count} participant", "{count} participants", $0) }
        #expect(
            counts == [
                "1 участник", "2 участника", "5 участников", "11 участников", "21 участник", "22 участника",
                "25 участников",
            ])
        #expect(t("Save {name}", context: "button", ["name": "файл"]) == "Сохранить файл")
        #expect(t("Not in the catalogue {x}", ["x": "1"]) == "Not in the catalogue 1")
        #expect(Translator.source.plural("{count} participant", "{count} participants", 1) == "1 participant")
        #expect(Translator.source.plural("{count} participant", "{count} participants", 0) == "0 participants")
    }

    @Test func numbersAndDatesInTheLanguagesWay() {
        let t = Translator(Self.russian)
        #expect(t.number(2.734, fractionDigits: 2) == "2,73")
        #expect(t.number(-0.5, fractionDigits: 1) == "-0,5")
        #expect(t.number(12345) == "12 345")
        #expect(t.number(1234) == "1234")
        #expect(Translator.source.number(1_234_567) == "1,234,567")
        #expect(Translator.source.number(2.6, fractionDigits: 0) == "3")
        #expect(t.date(year: 2026, month: 11, day: 22) == "22 ноября 2026 г.")
        #expect(Translator.source.date(year: 2026, month: 11, day: 22) == "November 22, 2026")
        #expect(Translator.source.date(year: 2026, month: 11, day: 22, withYear: false) == "November 22")
        #expect(Translator.source.weekday(1) == "Monday" && Translator.source.weekday(7, short: true) == "Sun")
        #expect(Translator.source.month(13) == "13")
    }

    @Test func placeholdersAreFilledOnceAndBracesStay() {
        #expect(Placeholders.fill("{a} {b} {a} {", ["a": "{b}", "b": "2"]) == "{b} 2 {b} {")
        #expect(Placeholders.fill("no {close", ["close": "x"]) == "no {close")
    }

    @Test func templatesAreTranslatedAtLoadTime() {
        let t = Translator(Self.russian)
        let template = "<a>{{#t}}Sign\n   in{{/t}}</a><b>{{#t button}}Save {name}{{/t}}</b>{{#total}}{{/total}}"
        #expect(TemplateText.translated(template, by: t) == "<a>Войти</a><b>Сохранить {name}</b>{{#total}}{{/total}}")
        #expect(
            TemplateText.messages(in: template) == [
                Catalogue.Key("Sign in"), Catalogue.Key("Save {name}", context: "button"),
            ])
        #expect(TemplateText.unclosed(in: "{{#t}}Open and never closed") == ["{{#t}}Open and never closed"])
        #expect(TemplateText.unclosed(in: template).isEmpty)
    }

    @Test func theBrowsersLanguageByQuality() {
        let available = ["en", "be", "bg", "ru", "uk"]
        #expect(LanguageChoice.best(acceptLanguage: "uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.5", available: available) == "uk")
        #expect(LanguageChoice.best(acceptLanguage: "de-DE, ru;q=0.3, en;q=0.7", available: available) == "en")
        #expect(LanguageChoice.best(acceptLanguage: "be-BY", available: available) == "be")
        #expect(LanguageChoice.best(acceptLanguage: "fr, *;q=0.1", available: available) == nil)
        #expect(LanguageChoice.best(acceptLanguage: "ru;q=0, bg", available: available) == "bg")
        #expect(LanguageChoice.best(acceptLanguage: String(repeating: "x,", count: 600), available: available) == nil)
        #expect(LanguageChoice.best(acceptLanguage: nil, available: available) == nil)
    }

    @Test func theUsersChoiceThenTheBrowserThenTheInstitution() throws {
        let languages = try Languages([Self.russian], institutionDefault: "ru")
        #expect(languages.codes == ["en", "ru"])
        #expect(languages.choose(choice: "en", acceptLanguage: "ru").code == "en")
        #expect(languages.choose(choice: "xx", acceptLanguage: "en-GB").code == "en")
        #expect(languages.choose(choice: nil, acceptLanguage: "de").code == "ru")
        #expect(throws: Languages.Unknown.self) { try Languages([Self.russian], institutionDefault: "de") }
    }
}
