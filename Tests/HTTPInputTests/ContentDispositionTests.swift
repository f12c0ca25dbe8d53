import Foundation
import Testing

@testable import HTTPInput

/// Download names as RFC 6266 and RFC 8187 write them (issue 35: Subsonic's `download` sent
/// `filename*=UTF-8''02 - Chapter 2.m4a`, raw spaces and all).
@Suite struct ContentDispositionTests {
    @Test func namesAreEncodedForFilenameStarWithAnASCIIFallback() {
        #expect(
            ContentDisposition.attachment(filename: "02 - Chapter 2.m4a")
                == #"attachment; filename="02 - Chapter 2.m4a"; filename*=UTF-8''02%20-%20Chapter%202.m4a"#)
        #expect(
            ContentDisposition.attachment(filename: "Глава 1; \"x\".mp3")
                == "attachment; filename=\"_____ 1; _x_.mp3\"; "
                + "filename*=UTF-8''%D0%93%D0%BB%D0%B0%D0%B2%D0%B0%201%3B%20%22x%22.mp3")
        #expect(
            ContentDisposition.attachment(filename: "results-1.csv")
                == #"attachment; filename="results-1.csv"; filename*=UTF-8''results-1.csv"#)
    }

    @Test func whatNoHeaderOrFileSystemHoldsBecomesAnUnderscore() {
        let header = ContentDisposition.attachment(filename: "a\r\nb\u{0}/..\\c%\u{7F}\u{85}.mp3")
        #expect(header == #"attachment; filename="a__b__.._c%__.mp3"; filename*=UTF-8''a__b__.._c%25__.mp3"#)
        #expect(header.unicodeScalars.allSatisfy { (0x20...0x7E).contains($0.value) })
    }

    @Test func onlyRFC8187AttrCharsGoUnencoded() {
        let marks = Set("!#$&+-.^_`|~".unicodeScalars)
        let ranges: [ClosedRange<Unicode.Scalar>] = ["a"..."z", "A"..."Z", "0"..."9"]
        for value in UInt32(0x20)...0x7E {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let attrChar = ranges.contains { $0.contains(scalar) } || marks.contains(scalar)
            let expected = attrChar ? String(scalar) : String(format: "%%%02X", value)
            #expect(ContentDisposition.encoded(String(scalar)) == expected, "\(scalar)")
        }
        #expect(ContentDisposition.encoded("é") == "%C3%A9")
    }
}
