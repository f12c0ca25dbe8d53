/// The languages Campus speaks: English, the source, and one catalogue per PO file. Which one a
/// person reads: their own choice (a signed-in user's profile, a visitor's switcher), else the
/// first language their browser asks for that Campus speaks, else the institution's.
public struct Languages: Sendable {
    /// English first, then the catalogues by code.
    public let catalogues: [Catalogue]
    /// The institution's language, for whoever has not chosen and whose browser asks for none
    /// Campus speaks.
    public let institutionDefault: String
    private let translators: [String: Translator]

    /// Why a language cannot be the institution's.
    public struct Unknown: Error, Sendable, CustomStringConvertible {
        public var code: String
        public var available: [String]
        public var description: String {
            "Campus does not speak \"\(code)\"; it speaks \(available.joined(separator: ", "))."
        }
    }

    public init(_ catalogues: [Catalogue], institutionDefault: String = "en") throws(Unknown) {
        self.init(checked: catalogues, institutionDefault: institutionDefault)
        guard translators[institutionDefault] != nil else {
            throw Unknown(code: institutionDefault, available: codes)
        }
    }

    private init(checked catalogues: [Catalogue], institutionDefault: String) {
        let all = [Catalogue.source] + catalogues.filter { $0.code != "en" }.sorted { $0.code < $1.code }
        self.catalogues = all
        var translators: [String: Translator] = [:]
        for catalogue in all { translators[catalogue.code] = Translator(catalogue) }
        self.translators = translators
        self.institutionDefault = institutionDefault
    }

    /// English alone, for what speaks only to administrators (the command line's account tools).
    public static let english = Languages(checked: [], institutionDefault: "en")

    /// Every language's code, English first.
    public var codes: [String] { catalogues.map(\.code) }

    /// The translator for a language Campus speaks, or nil.
    public func translator(_ code: String?) -> Translator? { code.flatMap { translators[$0] } }

    /// The language for a person: their choice if Campus speaks it, else their browser's, else
    /// the institution's.
    public func choose(choice: String?, acceptLanguage: String?) -> Translator {
        if let chosen = translator(choice) { return chosen }
        if let asked = LanguageChoice.best(acceptLanguage: acceptLanguage, available: codes),
            let translator = translators[asked]
        {
            return translator
        }
        return translators[institutionDefault] ?? .source
    }
}
