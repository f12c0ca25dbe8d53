import Foundation

/// Which of the languages Campus speaks a browser asks for, from its `Accept-Language` header
/// (RFC 9110: `uk-UA,uk;q=0.9,ru;q=0.8,en;q=0.5`). A range matches a language by its primary
/// subtag (`ru-BY` is `ru`); `*` is left to the institution's default.
public enum LanguageChoice {
    /// The best of `available` the header asks for, or nil when it asks for none of them.
    public static func best(acceptLanguage header: String?, available: [String]) -> String? {
        guard let header, header.utf8.count <= 1000 else { return nil }
        var best: (code: String, quality: Double, order: Int)?
        for (order, item) in header.split(separator: ",").prefix(40).enumerated() {
            let parts = item.split(separator: ";")
            guard let range = parts.first?.trimmingCharacters(in: .whitespaces).lowercased(), !range.isEmpty else {
                continue
            }
            var quality = 1.0
            for parameter in parts.dropFirst() {
                let pair = parameter.split(separator: "=", maxSplits: 1)
                if pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces) == "q" {
                    quality = Double(pair[1].trimmingCharacters(in: .whitespaces)) ?? 0
                }
            }
            guard quality > 0, quality <= 1 else { continue }
            let primary = range.split(separator: "-").first.map(String.init) ?? range
            guard let code = available.first(where: { $0 == primary }) else { continue }
            if best == nil || quality > best?.quality ?? 0 {
                best = (code, quality, order)
            }
        }
        return best?.code
    }
}
