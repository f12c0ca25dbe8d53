import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Parsers stop at a document's first error and keep it. FoundationXML on Linux lets libxml2
/// recover and report error after error, and keeps memory for each (Fuzz/FuzzRSS: a broken
/// 500-byte feed grew the resident memory by 2.4 KB per reading, without end); Campus refuses a
/// document at its first error anyway. Each reader's `parseErrorOccurred` calls ``stop(_:at:keeping:)``
/// (on Linux, XMLParserDelegate is a Swift protocol: a superclass cannot share it).
extension XMLInput {
    static func stop(_ parser: XMLParser, at error: any Error, keeping first: inout (any Error)?) {
        if first == nil { first = error }
        parser.abortParsing()
    }

    /// Why the document is not well-formed, as the parser said it first.
    static func reason(_ parser: XMLParser, firstError: (any Error)?) -> String {
        (firstError ?? parser.parserError).map { ($0 as NSError).localizedDescription } ?? "unknown error"
    }
}
