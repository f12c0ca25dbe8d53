import Testing

@testable import Localization

@Suite struct PluralRuleTests {
    /// The East Slavic rule gettext's manual gives, as ru.po, be.po and uk.po write it.
    static let eastSlavic =
        "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);"

    @Test func eastSlavicFormsFollowCLDR() throws {
        let rule = try PluralRule(header: Self.eastSlavic)
        // CLDR: one 1, 21, 101; few 2–4, 22–24; many 0, 5–20, 25–30, 111–114.
        let expected = [
            0: 2, 1: 0, 2: 1, 4: 1, 5: 2, 11: 2, 12: 2, 14: 2, 21: 0, 22: 1, 25: 2, 101: 0, 111: 2, 112: 2, 1001: 0,
        ]
        for (n, form) in expected { #expect(rule.form(n) == form, "\(n)") }
        #expect(rule.count == 3)
    }

    @Test func twoFormsLikeEnglishAndBulgarian() throws {
        let rule = try PluralRule(header: "nplurals=2; plural=(n != 1);")
        #expect([1, 2, 5, 11, 21, 22, 25, 0].map(rule.form) == [0, 1, 1, 1, 1, 1, 1, 1])
        #expect([1, 2, 0].map(PluralRule.english.form) == [0, 1, 1])
    }

    @Test func precedenceAndOperatorsAreCs() throws {
        #expect(try PluralRule(header: "nplurals=6; plural=n+1*2-1;").form(3) == 4)
        #expect(try PluralRule(header: "nplurals=6; plural=!(n==1) ? n/2 : 5;").form(9) == 4)
        #expect(try PluralRule(header: "nplurals=6; plural=n>=2 && n<=4 || n==0;").form(0) == 1)
        // A form past nplurals is the last form, never an index out of range.
        #expect(try PluralRule(header: "nplurals=2; plural=n;").form(7) == 1)
        #expect(try PluralRule(header: "nplurals=2; plural=n%0;").form(7) == 0)
    }

    @Test(arguments: [
        "", "nplurals=3;", "nplurals=0; plural=0;", "nplurals=2; plural=(n;", "nplurals=2; plural=n ? 1;",
        "nplurals=2; plural=x;", "nplurals=2; plural=n == ;",
        "nplurals=2; plural=" + String(repeating: "(", count: 200),
    ])
    func refusesWhatItCannotRead(header: String) {
        #expect(throws: PluralRule.Unreadable.self) { try PluralRule(header: header) }
    }
}
