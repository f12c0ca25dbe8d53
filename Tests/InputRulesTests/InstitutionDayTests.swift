import Foundation
import Testing

@testable import InputRules

/// A moment Campus keeps is the day it is where the institution is: in 1900–2200 on its clocks.
@Suite struct InstitutionDayTests {
    static let utcPlus3 = TimeZone(secondsFromGMT: 3 * 3600)!

    @Test func momentsAreCheckedAsDaysOfTheInstitution() {
        // 1900-01-01T00:00:00+14:00 is 1899-12-31T10:00Z: 1899 in Minsk (and in UTC), outside,
        // though some time zone's clocks read 1900 then.
        let early = Date(timeIntervalSince1970: -2_209_039_200)
        #expect(DateRules.isSupported(early))
        #expect(!DateRules.isSupported(early, in: Self.utcPlus3))
        #expect(!DateRules.isSupported(early, in: TimeZone(identifier: "Europe/Minsk")!))
        #expect(!DateRules.isSupported(early, in: .gmt))
        // 2200-12-31T23:59:59-14:00 is 2201-01-01T13:59:59Z: 2201 everywhere Campus might be.
        let late = Date(timeIntervalSince1970: 7_289_704_799)
        #expect(!DateRules.isSupported(late, in: Self.utcPlus3))
        #expect(!DateRules.isSupported(late, in: TimeZone(secondsFromGMT: -12 * 3600)!))
        // The edges on the institution's clocks: 2200-12-31 23:59:59 is in, the next second is not.
        #expect(DateRules.isSupported(Date(timeIntervalSince1970: 7_289_643_599), in: Self.utcPlus3))
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: 7_289_643_600), in: Self.utcPlus3))
        #expect(DateRules.isSupported(Date(timeIntervalSince1970: -2_208_988_800), in: .gmt))  // 1900-01-01T00:00Z
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: -2_208_988_801), in: .gmt))
        let utcMinus1 = TimeZone(secondsFromGMT: -3600)!
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: -2_208_988_800), in: utcMinus1))
        #expect(!DateRules.isSupported(.distantPast, in: .gmt) && !DateRules.isSupported(.distantFuture, in: .gmt))
        #expect(!DateRules.isSupported(Date(timeIntervalSince1970: .nan), in: .gmt))
    }
}
