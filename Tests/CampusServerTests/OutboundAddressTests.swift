import CampusHTTP
import Foundation
import Testing

/// Issue 35, item 9: one address rule (``OutboundURL``) for every URL Campus fetches or sends a
/// player to, whatever spelling its address has. The import, the redirects and the API with the
/// same URLs are `PodcastAddressTests`.
@Suite struct OutboundAddressTests {
    /// Hosts as URLs write them (or `URL.host` gives them), and the address that browsers, curl
    /// and `getaddrinfo` connect to.
    static let spellings: [(String, String)] = [
        ("2130706433", "127.0.0.1"), ("0x7f.1", "127.0.0.1"), ("0X7F.1", "127.0.0.1"),
        ("0177.0.0.1", "127.0.0.1"), ("127.1", "127.0.0.1"), ("127.0.0.1.", "127.0.0.1"),
        ("0x7f000001", "127.0.0.1"), ("017700000001", "127.0.0.1"), ("0x7f.0.0x0.1", "127.0.0.1"),
        ("192.168.257", "192.168.1.1"), ("10.1", "10.0.0.1"), ("0", "0.0.0.0"), ("4294967295", "255.255.255.255"),
        ("%31%32%37.0.0.1", "127.0.0.1"), ("１２７.０.０.１", "127.0.0.1"), ("127。0。0。1", "127.0.0.1"),
        ("127.0.0.1\u{AD}", "127.0.0.1"), ("[::7f00:1]", "::7f00:1"), ("::7f00:1", "::7f00:1"),
        ("[2002:7f00:1::1]", "2002:7f00:1::1"), ("[::FFFF:127.0.0.1]", "::ffff:7f00:1"),
        ("[fe80::1%eth0]", "fe80::1"), ("fe80::1%25eth0", "fe80::1"), ("1572395042", "93.184.216.34"),
    ]

    @Test(arguments: OutboundAddressTests.spellings)
    func everySpellingOfAnAddressIsThatAddress(_ host: String, _ address: String) throws {
        #expect(OutboundHost(host) == .address(try #require(NetworkAddress(text: address))))
    }

    /// What no browser connects to (a URL with such a host is refused by browsers) is no host.
    @Test(arguments: [
        "1.2.3.08", "0x100000000", "4294967296", "1.2.3.4.5", "example.123", "0x", "a..b", "", "[::1", "[127.0.0.1]",
        "exa mple", "a%zz", "%2531.0.0.1", "0x7f.1 foo", "127.0.0.1:80", "a/b", "a@b",
    ])
    func whatNoBrowserReadsIsNoHost(_ host: String) {
        #expect(OutboundHost(host) == nil)
    }

    @Test func namesOfThisMachineAndOfLocalNetworksArePrivate() {
        #expect(OutboundHost("Podcasts.Example.ORG.") == .name("podcasts.example.org"))
        for name in [
            "localhost", "LOCALHOST.", "api.localhost", "printer.local", "nas.home.arpa", "db.internal", "nas",
        ] {
            #expect(OutboundHost(name)?.isPrivate == true, "\(name)")
        }
        for name in [
            "podcasts.example.org", "local.example.org", "internal.example.org", "localhost.example.org",
            "xn--e1afmkfd.xn--p1ai",
        ] {
            #expect(OutboundHost(name)?.isPrivate == false, "\(name)")
        }
    }

    /// IPv6 addresses that lead to IPv4 ones are judged by them; other IPv6 is public only in
    /// the global unicast space.
    static let addresses: [(String, Bool)] = [
        ("::7f00:1", false), ("::a00:1", false), ("::127.0.0.1", false), ("::", false), ("::1", false),
        ("::ffff:0:7f00:1", false), ("::ffff:7f00:1", false), ("2002:7f00:1::1", false), ("2002:a9fe:a9fe::1", false),
        ("2001::7f00:1", false), ("2001:0:4136:e378:8000:63bf:80ff:fffe", false), ("64:ff9b::7f00:1", false),
        ("64:ff9b::10.0.0.1", false), ("64:ff9b:1::a00:1", false), ("64:ff9b:1::808:808", false), ("100::1", false),
        ("2001:2::1", false), ("3fff::1", false), ("5f00::1", false), ("fc00::1", false), ("fe80::1", false),
        ("ff02::1", false), ("192.88.99.1", false), ("1::", false),
        ("::ffff:8.8.8.8", true), ("2002:5db8:d822::1", true), ("64:ff9b::808:808", true),
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", true), ("2001:200::1", true), ("2620:fe::fe", true),
    ]

    @Test(arguments: OutboundAddressTests.addresses)
    func addressesInsideAddressesAreJudgedByWhereTheyLead(_ text: String, _ isPublic: Bool) throws {
        #expect(try #require(NetworkAddress(text: text)).isPublic == isPublic)
    }

    @Test func teredoCarriesItsServerAndItsInvertedClient() throws {
        let teredo = try #require(NetworkAddress(text: "2001:0:4136:e378:8000:63bf:80ff:fffe"))
        #expect(teredo.carriedIPv4?.map(\.text) == ["65.54.227.120", "127.0.0.1"])
        let zeroServer = try #require(NetworkAddress(text: "2001::7f00:1"))
        #expect(zeroServer.carriedIPv4?.map(\.text) == ["0.0.0.0", "128.255.255.254"])
        #expect(try #require(NetworkAddress(text: "2002:a9fe:a9fe::1")).carriedIPv4?.map(\.text) == ["169.254.169.254"])
        #expect(try #require(NetworkAddress(text: "2a00:1450:4001::200e")).carriedIPv4 == nil)
        #expect(try #require(NetworkAddress(text: "8.8.8.8")).carriedIPv4 == nil)
    }

    static func refusal(_ url: String, allowPrivate: Bool = false) -> OutboundURL.Refusal? {
        do throws(OutboundURL.Refusal) {
            _ = try OutboundURL(url, allowPrivate: allowPrivate)
            return nil
        } catch {
            return error
        }
    }

    /// The issue's enclosures and fetches, and more ways to this machine and private networks.
    static let privateURLs = [
        "http://2130706433/a.mp3", "http://0x7f.1/a.mp3", "http://[::7f00:1]:8000/a.mp3",
        "http://[2002:7f00:1::1]/a.mp3", "http://[::ffff:0:7f00:1]/a.mp3", "http://[2001::7f00:1]/a.mp3",
        "http://[::a00:1]/a.mp3", "http://0177.0.0.1/a.mp3", "http://127.1/a.mp3", "http://127.0.0.1./a.mp3",
        "http://0x7f000001/a.mp3", "http://017700000001:8000/a.mp3", "http://10.1/a.mp3", "http://192.168.257/a.mp3",
        "http://0/a.mp3", "http://4294967295/a.mp3", "http://%31%32%37.0.0.1/a.mp3", "http://[::1]/a.mp3",
        "http://[0:0:0:0:0:0:0:1]/", "http://[::]/", "http://[::ffff:127.0.0.1]/", "http://[::127.0.0.1]/",
        "http://[64:ff9b::7f00:1]/", "http://[64:ff9b:1::808:808]/", "http://[2002:a9fe:a9fe::1]/latest/meta-data/",
        "http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/", "http://[fd00::1]/", "http://[fe80::1]/", "http://[ff02::1]/",
        "http://[2001:db8::1]/", "http://169.254.169.254/latest/meta-data/", "http://100.64.0.1/",
        "HTTP://LOCALHOST:8000/", "http://localhost./a.mp3", "http://api.localhost/a.mp3", "http://printer.local/a.mp3",
        "http://nas.home.arpa/", "http://db.internal/", "http://nas/a.mp3", "http://user:secret@127.0.0.1/a.mp3",
        "https://podcasts.example.org@0x7f.1/a.mp3",
    ]

    @Test(arguments: OutboundAddressTests.privateURLs)
    func urlsOnThisMachineOrAPrivateNetworkAreRefused(_ url: String) {
        let refusal = Self.refusal(url)
        guard case .some(.privateHost) = refusal else {
            Issue.record("\(url): \(String(describing: refusal))")
            return
        }
        #expect(Self.refusal(url, allowPrivate: true) == nil, "--allow-private-fetch lets \(url) through")
    }

    /// Browsers map full-width digits, other dots and invisible characters before they read a
    /// host; whatever Foundation makes of them, such a URL is refused.
    @Test(arguments: [
        "http://１２７.０.０.１/a.mp3", "http://127。0。0。1/a.mp3", "http://127.0.0.1\u{AD}/a.mp3",
        "http://ｌｏｃａｌｈｏｓｔ/a.mp3", "http://[fe80::1%25eth0]/a.mp3",
    ])
    func mappedSpellingsAreRefusedToo(_ url: String) {
        #expect(Self.refusal(url) != nil)
    }

    /// What two readers would read differently, or no browser reads, is no http(s) URL, with or
    /// without private addresses.
    @Test(arguments: [
        "http://127.0.0.1\\@example.org/a.mp3", "http://example.org\\@127.0.0.1/a.mp3",
        "http://a@example.org@127.0.0.1/a.mp3", "http://1.2.3.08/a.mp3", "http://example.123/a.mp3",
        "http://0x100000000/a.mp3", "http://4294967296/a.mp3", "http://1.2.3.4.5/a.mp3", "http:127.0.0.1/a.mp3",
        "http:/127.0.0.1/a.mp3", "http:////127.0.0.1/a.mp3", "http://127.0.0.1\t/a.mp3", "http://12\n7.0.0.1/a.mp3",
        "http://exa mple.org/a.mp3", "ftp://example.org/a.mp3", "file:///etc/passwd", "/srv/a.mp3", "http://a..b/a.mp3",
        "http://[::1/a.mp3",
    ])
    func urlsReadersWouldReadDifferentlyAreNoURLs(_ url: String) {
        #expect(Self.refusal(url) == .notWebURL)
        #expect(Self.refusal(url, allowPrivate: true) == .notWebURL)
    }

    @Test(arguments: [
        "https://podcasts.example.org/1.mp3", "http://93.184.216.34/a.mp3", "http://1572395042/a.mp3",
        "http://[2a00:1450:4001::200e]:8080/a.mp3", "http://[::ffff:8.8.8.8]/a.mp3", "http://[2002:5db8:d822::1]/a.mp3",
        "http://[64:ff9b::808:808]/a.mp3", "http://[2001:0:4136:e378:8000:63bf:f7f7:f7f7]/a.mp3",
        "https://user:secret@podcasts.example.org/a.mp3", "https://podcasts.example.org/episode 1.mp3",
        "https://podcasts.example.org/выпуск.mp3?from=rss#t=10", "HTTPS://Podcasts.Example.org./a.mp3",
        "https://cdn.example.org/a\\b.mp3", "https://cdn.example.org/a.mp3?next=http://127.0.0.1/",
    ])
    func publicURLsPass(_ url: String) {
        #expect(Self.refusal(url) == nil)
    }

    /// The fetch keeps the same rule before it connects (before, these reached a connection
    /// attempt); with `.any` (the IIS sync, `--allow-private-fetch`) they are fetched.
    @Test func fetchesRefuseEverySpellingBeforeConnecting() async throws {
        let fetch = OutboundFetch(addresses: .publicOnly, deadline: .seconds(5), maximumBytes: 1000)
        for url in [
            "http://[::ffff:0:7f00:1]:9/feed.xml", "http://[2001::7f00:1]:9/feed.xml", "http://[::a00:1]:9/feed.xml",
            "http://2130706433:9/feed.xml", "http://0x7f.1:9/feed.xml", "http://[::7f00:1]:9/feed.xml",
            "http://[2002:7f00:1::1]:9/feed.xml", "http://[64:ff9b:1::a00:1]:9/feed.xml", "http://0177.0.0.1:9/",
            "http://127.1.:9/", "http://%31%32%37.0.0.1:9/", "http://nas:9/", "http://printer.local:9/",
        ] {
            await #expect { try await fetch.get(url) } throws: { error in
                let text = (error as? OutboundFetch.Failed)?.description ?? "\(error)"
                return text.contains("a loopback, private or link-local address")
                    || text.contains("names this machine or a local network")
            }
        }
        let any = OutboundFetch(addresses: .any, deadline: .seconds(5), maximumBytes: 1000)
        await #expect { try await any.get("http://0x7f.1:9/feed.xml") } throws: { error in
            !((error as? OutboundFetch.Failed)?.description ?? "").contains("a loopback, private or link-local")
        }
    }
}
