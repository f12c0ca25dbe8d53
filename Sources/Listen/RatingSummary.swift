import Foundation
import InputRules

/// A listener's ratings of a parent: 1 to 5 stars.
public struct RatingSummary: Sendable, Equatable {
    public var average: Double?
    public var count: Int
    public var mine: Int?

    public init(average: Double?, count: Int, mine: Int?) {
        self.average = average
        self.count = count
        self.mine = mine
    }

    public static let stars = 1...5
}
