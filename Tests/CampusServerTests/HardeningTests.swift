import CampusHTTP
import Foundation
import HTTPInput
import InputRules
import Testing
import Yams

@testable import CampusServer

/// The parts of issue 10's fixes that can be checked without a server: addresses, the request
/// validator's words, CSV cells, the login's `next`, transcode slots.
@Suite struct HardeningTests {
    @Test(arguments: [
        ("127.0.0.1", false), ("10.1.2.3", false), ("172.16.0.1", false), ("172.31.255.255", false),
        ("192.168.1.1", false), ("169.254.169.254", false), ("100.64.0.1", false), ("0.0.0.0", false),
        ("224.0.0.1", false), ("255.255.255.255", false), ("::1", false), ("::", false), ("fe80::1", false),
        ("fd12:3456::1", false), ("::ffff:127.0.0.1", false), ("::ffff:10.0.0.1", false), ("64:ff9b::a00:1", false),
        ("ff02::1", false), ("2001:db8::1", false),
        ("8.8.8.8", true), ("172.32.0.1", true), ("100.128.0.1", true), ("2a00:1450:4001::200e", true),
        ("::ffff:8.8.8.8", true),
    ])
    func addressesArePublicOrNot(_ text: String, _ isPublic: Bool) throws {
        let address = try #require(NetworkAddress(text: text))
        #expect(address.isPublic == isPublic)
    }

    @Test func hostNamesThatNameThisMachine() {
        #expect(OutboundHost("localhost")?.isPrivate == true)
        #expect(OutboundHost("api.LOCALHOST")?.isPrivate == true)
        #expect(OutboundHost("[::1]")?.isPrivate == true)
        #expect(OutboundHost("127.0.0.2")?.isPrivate == true)
        #expect(OutboundHost("podcasts.example.org")?.isPrivate == false)
        #expect(OutboundHost("93.184.216.34")?.isPrivate == false)
        #expect(NetworkAddress(text: "not-an-address") == nil)
    }

    @Test func fetchesOfPrivateAddressesAreRefusedBeforeConnecting() async throws {
        let fetch = OutboundFetch(addresses: .publicOnly, deadline: .seconds(5), maximumBytes: 1000)
        for url in ["http://127.0.0.1:9/feed.xml", "http://[::1]:9/", "http://localhost:9/", "http://10.0.0.1/"] {
            await #expect { try await fetch.get(url) } throws: {
                ($0 as? OutboundFetch.Failed)?.description.contains("private") == true
            }
        }
        for url in ["file:///etc/passwd", "ftp://example.org/x", "gopher://x", "/srv/private/secret.mp3"] {
            await #expect { try await fetch.get(url) } throws: {
                ($0 as? OutboundFetch.Failed)?.description.contains("not an http or https URL") == true
            }
        }
    }

    @Test func numbersJSONAllowsButCampusCannotHoldAreNamed() throws {
        #expect(RequestValidator.unrepresentableNumber(in: Data(#"{"value": 1e-400}"#.utf8))?.text == "1e-400")
        #expect(RequestValidator.unrepresentableNumber(in: Data(#"{"value": -1E400}"#.utf8))?.isLarge == true)
        #expect(RequestValidator.unrepresentableNumber(in: Data(#"{"value": 0e-400, "b": 5e-324}"#.utf8)) == nil)
        #expect(RequestValidator.unrepresentableNumber(in: Data(#"{"name": "1e-400", "v": 2}"#.utf8)) == nil)
        #expect(RequestValidator.unrepresentableNumber(in: Data(#"{"name": "a\"1e999", "v": 0.0}"#.utf8)) == nil)
    }

    @Test func patternsSayWhatTheyWant() throws {
        let validator = try APIDocumentation.bundled().validator
        let operation = try #require(validator.operation(method: .post, template: "/api/v1/podcasts"))
        #expect {
            try validator.checkBody(of: operation, Data(#"{"url": "file:///etc/passwd"}"#.utf8))
        } throws: { error in
            (error as? ValidationFailure)?.problems.first?.detail
                == "url must be an http:// or https:// URL without spaces or control characters."
        }
        let comment = try #require(validator.operation(method: .post, template: "/api/v1/comments"))
        #expect {
            try validator.checkBody(of: comment, Data(#"{"parentId": 1, "body": "\u0000\u202e evil"}"#.utf8))
        } throws: { error in
            (error as? ValidationFailure)?.problems.first?.detail
                == "body contains a control character (U+0000), which is not allowed."
        }
        try validator.checkBody(of: comment, Data(#"{"parentId": 1, "body": "Two\nlines\tand a tab"}"#.utf8))
    }

    /// Every `pattern` of the document says in words what it wants, and every string a request
    /// may carry refuses control characters in the document too (so that clients and schemathesis
    /// know what the server refuses).
    @Test func everyInputStringOfTheDocumentRefusesControlCharacters() throws {
        let text = try APIDocumentation.bundled().yaml
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let components = document["components"] as? [String: Any] ?? [:]
        func resolve(_ node: Any?) -> [String: Any]? {
            var current = node as? [String: Any]
            while let reference = current?["$ref"] as? String {
                var found: Any? = components
                for part in reference.dropFirst("#/components/".count).split(separator: "/") {
                    found = (found as? [String: Any])?[String(part)]
                }
                current = found as? [String: Any]
            }
            return current
        }
        var unchecked: [String] = []
        func walk(_ node: Any?, _ path: String) {
            guard let schema = resolve(node) else { return }
            if let properties = schema["properties"] as? [String: Any] {
                for (name, value) in properties { walk(value, "\(path).\(name)") }
            } else if schema["type"] as? String == "array" {
                walk(schema["items"], "\(path)[]")
            } else if schema["type"] as? String == "string", schema["enum"] == nil, schema["format"] == nil {
                guard let pattern = schema["pattern"] as? String, schema["x-pattern-message"] is String,
                    let expression = try? NSRegularExpression(pattern: pattern)
                else { return unchecked.append(path) }
                let nul = "a\u{0}b"
                if expression.firstMatch(in: nul, range: NSRange(nul.startIndex..., in: nul)) != nil {
                    unchecked.append(path)
                }
            }
        }
        for (path, item) in document["paths"] as? [String: Any] ?? [:] {
            for (method, value) in item as? [String: Any] ?? [:] {
                guard let operation = value as? [String: Any] else { continue }
                for parameter in operation["parameters"] as? [Any] ?? [] {
                    let resolved = resolve(parameter)
                    walk(resolved?["schema"], "\(method) \(path) \(resolved?["name"] ?? "")")
                }
                let body = resolve(operation["requestBody"])?["content"] as? [String: Any]
                walk((body?["application/json"] as? [String: Any])?["schema"], "\(method) \(path)")
            }
        }
        #expect(unchecked.isEmpty, "strings without a control-character pattern and message: \(unchecked)")
    }

    @Test func csvTextCellsCannotStartFormulas() {
        #expect(ResultsCSV.text(#"=HYPERLINK("http://evil","x")"#) == #"'=HYPERLINK("http://evil","x")"#)
        for start in ["+", "-", "@", "\t", "\r", "\u{FF1D}"] { #expect(ResultsCSV.text(start + "1").hasPrefix("'")) }
        #expect(ResultsCSV.text("Ann Lee") == "Ann Lee")
        #expect(ResultsCSV.text("") == "")
    }

    @Test func nextAfterLoginIsAPathOfThisSite() {
        for bad in [
            "/\t/127.0.0.1:18401/pwned.html", "//evil.example", "/\\evil.example", "https://evil.example",
            "/\r\n/evil", "/ /evil", "javascript:alert(1)", "", String(repeating: "/a", count: 300),
        ] {
            #expect(SignInPages.safeNext(bad) == "/", "\(bad)")
        }
        #expect(SignInPages.safeNext(nil) == "/")
        for good in ["/", "/compete", "/timetable/groups/151004?week=2026-11-16", "/listen/albums/3", "/%D0%B0"] {
            #expect(SignInPages.safeNext(good) == good)
        }
    }

    @Test func transcodeSlotsArePerListenerAndInAll() throws {
        let slots = TranscodeSlots(total: 3, perHolder: 2)
        let a1 = try slots.take(for: "user:1")
        let a2 = try slots.take(for: "user:1")
        #expect { try slots.take(for: "user:1") } throws: {
            ($0 as? Refusal).map(Problem.init)?.status == .tooManyRequests
        }
        let b1 = try slots.take(for: "user:2")
        #expect { try slots.take(for: "user:3") } throws: {
            let problem = ($0 as? Refusal).map(Problem.init)
            return problem?.status == .serviceUnavailable && problem?.headers[.retryAfter] != nil
        }
        a1.release()
        a1.release()  // giving back twice counts once
        #expect(slots.inUse == 2)
        _ = try slots.take(for: "user:3")
        _ = (a2, b1)
    }
}
