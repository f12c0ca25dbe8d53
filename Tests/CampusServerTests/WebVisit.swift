import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore

/// A browser's visit to the web app: the cookies the server sets are sent back, as a browser
/// sends them, and the forms carry the CSRF token of the last page read.
struct WebVisit {
    let server: TestServer
    var language: String
    private(set) var cookies: [String: String] = [:]
    private(set) var csrf: String?

    /// A visitor, or a signed-in user when `token` (a bearer token works as the session cookie).
    init(_ server: TestServer, token: String? = nil, language: String = "en") {
        self.server = server
        self.language = language
        if let token { cookies["campus_session"] = token }
    }

    var headers: HTTPFields {
        var headers: HTTPFields = [.accept: "text/html", .acceptLanguage: language]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        return headers
    }

    /// Reads a page, keeping its cookies and its forms' CSRF token.
    mutating func get(_ path: String) async throws -> TestResponse {
        let response = try await server.request(.get, path, headers: headers)
        keepCookies(of: response)
        if let token = LanguageTests.csrf(response.text) { csrf = token }
        return response
    }

    /// Sends a form (URL-encoded) with the CSRF token of the last page, and `extra` headers.
    mutating func post(_ path: String, _ fields: [(String, String)], headers extra: HTTPFields = [:]) async throws
        -> TestResponse
    {
        func encoded(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        }
        let body = ([("_csrf", csrf ?? "")] + fields).map { "\(encoded($0.0))=\(encoded($0.1))" }
            .joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded"
        headers.append(contentsOf: extra)
        let response = try await server.http.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
        keepCookies(of: response)
        return response
    }

    /// Sends a file in a multipart form, with the CSRF token of the last page.
    mutating func upload(_ path: String, file: Data, field: String = "file") async throws -> TestResponse {
        let boundary = "campus-test-boundary"
        var body = Data()
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"_csrf\"\r\n\r\n".utf8))
        body.append(Data("\(csrf ?? "")\r\n".utf8))
        body.append(Data("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(field)\"; ".utf8))
        body.append(Data("filename=\"notes.json\"\r\nContent-Type: application/json\r\n\r\n".utf8))
        body.append(file)
        body.append(Data("\r\n--\(boundary)--\r\n".utf8))
        var headers = headers
        headers[.contentType] = "multipart/form-data; boundary=\(boundary)"
        let response = try await server.http.execute(
            uri: path, method: .post, headers: headers, body: ByteBuffer(bytes: body))
        keepCookies(of: response)
        return response
    }

    /// The cookies an answer sets (and removes, with `Max-Age=0`).
    private mutating func keepCookies(of response: TestResponse) {
        for header in response.headers[values: .setCookie] {
            let pair = header.split(separator: ";", maxSplits: 1)[0]
            guard let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals])
            if header.contains("Max-Age=0") {
                cookies[name] = nil
            } else {
                cookies[name] = String(pair[pair.index(after: equals)...])
            }
        }
    }

    /// The value of a cookie the last answers set.
    func cookie(_ name: String) -> String? { cookies[name] }
}
