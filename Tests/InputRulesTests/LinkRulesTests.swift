import Testing

@testable import InputRules

/// One rule for every link Campus keeps or redirects to: a path of this site in URL characters,
/// or an http(s) address of another site.
@Suite struct LinkRulesTests {
    @Test func sitePathsAreOneSlashAndURLCharacters() {
        for path in [
            "/", "/listen", "/listen/albums/2?from=feed&x=%D0%90", "/compete/1#ranking", "/a:b@c;d=e,f!g$h'(i)*+~",
        ] {
            #expect(LinkRules.isSitePath(path), "\(path)")
        }
        let otherSites = [
            "/\\evil.example", "/\\/evil.example", "\\\\evil.example", "//evil.example", "///evil.example",
            "/\t/evil.example", "/\n/evil.example", "/\r/evil.example", " /evil", "/ evil", "/\u{0}",
            "https://evil.example", "evil.example", "javascript:alert(1)", "", "/é", "/\u{FF0F}evil.example",
            "/\"onmouseover=x", "/<script>", "/a|b", "/{x}", "/[::1]",
            "/" + String(repeating: "a", count: LinkRules.maximumLength),
        ]
        for link in otherSites {
            #expect(!LinkRules.isSitePath(link), "\(link)")
        }
    }

    @Test func webAddressesAreHTTPWithAHost() {
        for address in [
            "https://example.org", "http://example.org/open-day?x=1#a", "HTTPS://Example.org/",
            "https://[2001:db8::1]/",
        ] {
            #expect(LinkRules.isWebAddress(address), "\(address)")
            #expect(LinkRules.isLink(address), "\(address)")
        }
        for address in [
            "https:\\\\evil.example", "https:evil.example", "https:/evil.example", "https://", "ftp://example.org",
            "javascript://example.org/%0Aalert(1)", "https://exa mple.org", "https://example.org/\u{0}",
            "https://пример.рф", "//example.org", "data:text/html,hi",
        ] {
            #expect(!LinkRules.isWebAddress(address), "\(address)")
        }
        #expect(LinkRules.isLink("/listen") && !LinkRules.isLink("/\\evil.example"))
    }
}
