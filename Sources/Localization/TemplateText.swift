import Foundation

/// The messages of a template: text marked `{{#t}}Sign in{{/t}}`, or with a context for the
/// translator, `{{#t button}}Save{{/t}}`. A template is translated once, when the server starts,
/// into one copy per language, so rendering a page costs nothing more than in English. A message
/// may hold Mustache tags (`{{#t}}Signed in as {{fullName}}{{/t}}`), which the translation keeps;
/// white space in it (a line break in the template) counts as one space.
public enum TemplateText {
    /// The template with every marked message replaced by its translation.
    public static func translated(_ template: String, by translator: Translator) -> String {
        var result = ""
        var rest = template[...]
        while let mark = next(in: rest) {
            result += rest[..<mark.range.lowerBound]
            result += translator(mark.message, context: mark.context)
            rest = rest[mark.range.upperBound...]
        }
        return result + rest
    }

    /// Every marked message of a template, with its context.
    public static func messages(in template: String) -> [Catalogue.Key] {
        var keys: [Catalogue.Key] = []
        var rest = template[...]
        while let mark = next(in: rest) {
            keys.append(Catalogue.Key(mark.message, context: mark.context))
            rest = rest[mark.range.upperBound...]
        }
        return keys
    }

    /// Text marked for translation but not closed (`{{#t}}` without `{{/t}}`), which would
    /// otherwise stay English without a word: the start of each, for the tests.
    public static func unclosed(in template: String) -> [String] {
        var found: [String] = []
        var rest = template[...]
        while let open = find("{{#t", in: rest) {
            let after = rest[open.upperBound...]
            guard after.first == "}" || after.first == " " else {
                rest = after
                continue
            }
            guard let end = find("{{/t}}", in: after) else {
                found.append(String(rest[open.lowerBound...].prefix(60)))
                break
            }
            rest = after[end.upperBound...]
        }
        return found
    }

    struct Mark {
        var range: Range<Substring.Index>
        var message: String
        var context: String?
    }

    static func next(in text: Substring) -> Mark? {
        var search = text
        while let open = find("{{#t", in: search) {
            let after = search[open.upperBound...]
            guard let tagEnd = find("}}", in: after) else { return nil }
            let tag = after[..<tagEnd.lowerBound]
            guard tag.isEmpty || tag.first == " " else {
                search = after
                continue
            }
            let body = after[tagEnd.upperBound...]
            guard let close = find("{{/t}}", in: body) else { return nil }
            let context = tag.split(separator: " ").joined(separator: " ")
            return Mark(
                range: open.lowerBound..<close.upperBound, message: normalized(body[..<close.lowerBound]),
                context: context.isEmpty ? nil : context)
        }
        return nil
    }

    /// Where `pattern` (ASCII) first is in `text`, found by bytes: Foundation's `range(of:)`
    /// counts in UTF-16, which took most of the time of translating a template.
    static func find(_ pattern: StaticString, in text: Substring) -> Range<Substring.Index>? {
        pattern.withUTF8Buffer { text.utf8.firstRange(of: $0) }
    }

    /// Runs of white space as one space, none at either end.
    static func normalized(_ text: Substring) -> String {
        text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }).joined(separator: " ")
    }
}
