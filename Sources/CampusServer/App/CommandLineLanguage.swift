import Foundation
import Localization

/// The language the `campus` command speaks to the person at the terminal: `CAMPUS_LANGUAGE`,
/// else the POSIX locale as gettext reads it (`LC_ALL`, then `LC_MESSAGES`, then `LANG`:
/// "uk_UA.UTF-8" is Ukrainian), else English. Output meant for programs (tab-separated lists,
/// JSON, iCalendar) stays as it is.
public enum CommandLineLanguage {
    public static func translator(
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) -> Translator {
        guard let code = code(environment), code != "en", let resources = try? Resources.locate(),
            let languages = try? LocalizedTemplates.languages(
                directory: resources.translations, institutionDefault: "en")
        else { return .source }
        return languages.translator(code) ?? .source
    }

    /// The language code of the first variable that is set: "ru_RU.UTF-8" → "ru", "C" → "c".
    static func code(_ environment: [String: String]) -> String? {
        for name in ["CAMPUS_LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[name], !value.isEmpty else { continue }
            return String(value.prefix { $0.isLetter }).lowercased()
        }
        return nil
    }
}
