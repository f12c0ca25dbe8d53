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
        guard let code = code(environment), code != "en", code.count <= 8, let resources = try? Resources.locate(),
            let text = try? String(contentsOfFile: resources.translations + "/\(code).po", encoding: .utf8),
            let catalogue = try? Catalogue(file: "\(code).po", text: text)
        else { return .source }
        // Only the one catalogue the person reads (`serve` asks too, to say where it runs).
        return Translator(catalogue)
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
