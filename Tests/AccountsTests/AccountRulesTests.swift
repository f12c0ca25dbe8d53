import Foundation
import InputRules
import Testing

@testable import Accounts

@Suite struct AccountRulesTests {
    @Test(arguments: [
        "ann@example.org", "Ann.Lee+campus@Sub.Example.ORG", "o'hara@example.co.uk", "x@xn--80ak6aa92e.com",
        "!#$%&'*+-/=?^_`{|}~@example.org",
    ])
    func acceptsRealAddresses(_ email: String) throws {
        #expect(try AccountRules.email(email) == email)
    }

    @Test(arguments: [
        "", "plainaddress", "@example.org", "ann@", "ann@example", "ann@@example.org", "ann..lee@example.org",
        ".ann@example.org", "ann@-example.org", "ann@example-.org", "ann lee@example.org", "ann@exa mple.org",
    ])
    func rejectsNonAddresses(_ email: String) {
        #expect(throws: FieldProblem.self) { try AccountRules.email(email) }
    }

    @Test func trimsAndKeysEmails() throws {
        #expect(try AccountRules.email("  Ann@Example.org ") == "Ann@Example.org")
        #expect(AccountRules.emailKey(" Ann@Example.ORG") == "ann@example.org")
    }

    @Test func emailLengthIsLimited() {
        let long = String(repeating: "a", count: 60) + "@" + String(repeating: "b", count: 200) + ".org"
        #expect(throws: FieldProblem.self) { try AccountRules.email(long) }
    }

    @Test func passwordsNeedEightToOneHundredTwentyEightCharacters() throws {
        #expect(throws: FieldProblem.self) { try AccountRules.newPassword("1234567") }
        try AccountRules.newPassword("12345678")
        try AccountRules.newPassword("пароль12")  // eight Cyrillic and digit characters, more bytes
        try AccountRules.newPassword(String(repeating: "x", count: 128))
        #expect(throws: FieldProblem.self) { try AccountRules.newPassword(String(repeating: "x", count: 129)) }
    }

    @Test func namesAreTrimmedAndChecked() throws {
        #expect(try AccountRules.name("  Анна ", field: "firstName") == "Анна")
        #expect(throws: FieldProblem.self) { try AccountRules.name("   ", field: "firstName") }
        #expect(throws: FieldProblem.self) { try AccountRules.name("A\u{0007}nn", field: "firstName") }
        #expect(throws: FieldProblem.self) { try AccountRules.name("A\u{0085}nn", field: "firstName") }
        #expect(throws: FieldProblem.self) {
            try AccountRules.name(String(repeating: "я", count: 101), field: "lastName")
        }
    }

    /// A name made of nothing a reader sees (zero width spaces, byte order marks, word joiners)
    /// is no name, and invisible characters around a name go with the spaces.
    @Test func invisibleNamesAreNoNames() throws {
        for name in ["\u{200B}", "\u{FEFF}", "\u{200B}\u{FEFF}\u{200B}", " \u{2060}\u{00AD} ", "\u{3164}"] {
            #expect(throws: FieldProblem.self, "\(name.unicodeScalars.map(\.value))") {
                try AccountRules.name(name, field: "firstName")
            }
        }
        #expect(try AccountRules.name("\u{FEFF}Анна\u{200B}", field: "lastName") == "Анна")
        #expect(try AccountRules.group("\u{200B}") == nil)
    }

    @Test func lengthsCountCodePointsAsJSONSchemaDoes() {
        // "é" written as e + combining acute is one character but two code points.
        let decomposed = String(repeating: "e\u{0301}", count: 51)
        #expect(decomposed.count == 51)
        #expect(throws: FieldProblem.self) { try AccountRules.name(decomposed, field: "firstName") }
    }

    @Test func groupsAndSubgroups() throws {
        #expect(try AccountRules.group(" 151004 ") == "151004")
        #expect(try AccountRules.group("  ") == nil)
        #expect(throws: FieldProblem.self) { try AccountRules.group(String(repeating: "1", count: 33)) }
        #expect(try AccountRules.subgroup(0) == 0)
        #expect(try AccountRules.subgroup(9) == 9)
        #expect(throws: FieldProblem.self) { try AccountRules.subgroup(10) }
        #expect(throws: FieldProblem.self) { try AccountRules.subgroup(-1) }
    }

    @Test func validatorCollectsEveryProblem() {
        var validator = Validator()
        _ = validator.check { () throws(FieldProblem) in try AccountRules.email("nope") }
        _ = validator.check { () throws(FieldProblem) in try AccountRules.newPassword("short") }
        _ = validator.check { () throws(FieldProblem) in try AccountRules.name("Ann", field: "firstName") }
        #expect(throws: ValidationFailure.self) { try validator.finish() }
        #expect(validator.problems.map(\.field) == ["email", "password"])
    }

    @Test func rolesAreOrdered() {
        #expect(Role.admin.includes(.organizer))
        #expect(Role.organizer.includes(.user))
        #expect(!Role.user.includes(.organizer))
        #expect(!Role.organizer.includes(.admin))
    }
}

@Suite struct LoginThrottleTests {
    let throttle = LoginThrottle(maxFailures: 5, window: .seconds(900))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func allowsFewerThanFiveFailures() {
        let failures = (1...4).map { now.addingTimeInterval(-Double($0) * 10) }
        #expect(throttle.decide(failures: failures, now: now) == .allowed)
    }

    @Test func blocksTheSixthAttemptUntilTheOldestFailureLeavesTheWindow() {
        // Failures 100, 80, 60, 40 and 20 seconds ago: the oldest leaves the window in 800 s.
        let failures = [100.0, 80, 60, 40, 20].map { now.addingTimeInterval(-$0) }
        #expect(throttle.decide(failures: failures, now: now) == .blocked(retryAfterSeconds: 800))
    }

    @Test func withMoreFailuresTheWaitEndsWhenOnlyFourRemain() {
        let failures = [300.0, 200, 100, 50, 40, 30].map { now.addingTimeInterval(-$0) }
        // Once the failure 200 s ago is 900 s old, four remain (100, 50, 40, 30 s ago).
        #expect(throttle.decide(failures: failures, now: now) == .blocked(retryAfterSeconds: 700))
    }

    @Test func oldFailuresDoNotCount() {
        let failures = [2000.0, 1500, 1000, 950, 20].map { now.addingTimeInterval(-$0) }
        #expect(throttle.decide(failures: failures, now: now) == .allowed)
    }
}
