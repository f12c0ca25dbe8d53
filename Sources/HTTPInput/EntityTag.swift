/// `If-None-Match` (RFC 9110 §13.1.2): whether a list of entity tags, or `*`, names `tag`. Weak
/// tags (`W/"…"`) match their strong form, as the weak comparison a GET uses says.
public enum EntityTag {
    public static func matches(_ header: String, _ tag: String) -> Bool {
        guard header.utf8.count <= 4096 else { return false }
        let strong = tag.hasPrefix("W/") ? String(tag.dropFirst(2)) : tag
        return header.split(separator: ",").contains { part in
            var given = part.trimmingCharacters(in: .whitespaces)
            if given == "*" { return true }
            if given.hasPrefix("W/") { given.removeFirst(2) }
            return given == strong
        }
    }
}
