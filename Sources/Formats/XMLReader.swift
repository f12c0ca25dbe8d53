import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parsers stop soon after a document's first error, and keep it. FoundationXML on Linux lets
/// libxml2 recover and report error after error, and keeps memory for each (Fuzz/FuzzRSS: a
/// broken 500-byte feed grew the resident memory by 2.4 KB per reading, without end); Campus
/// refuses a document at its first error anyway. A reader's `parseErrorOccurred` only keeps the
/// error: aborting there crashes libxml2 when the error is in the parser's first chunk (Fuzz/FuzzGPX
/// `crash-after-an-error-in-the-first-chunk`); each of its other events asks ``stopped(_:after:)``
/// first, and parsing stops there. (On Linux XMLParserDelegate is a Swift protocol, so a
/// superclass cannot share these methods.)
extension XMLInput {
    /// Whether an error came before: then parsing is stopped and the event is to be ignored.
    static func stopped(_ parser: XMLParser, after firstError: (any Error)?) -> Bool {
        guard firstError != nil else { return false }
        parser.abortParsing()
        return true
    }

    /// Why the document is not well-formed, as the parser said it first.
    static func reason(_ parser: XMLParser, firstError: (any Error)?) -> String {
        (firstError ?? parser.parserError).map { ($0 as NSError).localizedDescription } ?? "unknown error"
    }
}
