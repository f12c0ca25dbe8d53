import InputRules

/// One page of a list: `limit` items after skipping `offset`.
struct Paging: Sendable {
    static let maxLimit = 200
    static let maxOffset = 1_000_000
    var limit: Int
    var offset: Int

    init(limit: Int?, offset: Int?, defaultLimit: Int = 50) throws {
        var validator = Validator()
        let limit = limit ?? defaultLimit
        let offset = offset ?? 0
        if !(1...Self.maxLimit).contains(limit) {
            validator.add(
                FieldProblem(
                    field: "limit", detail: "limit is a number from 1 to {maximum}.",
                    ["maximum": String(Self.maxLimit)]))
        }
        if !(0...Self.maxOffset).contains(offset) {
            validator.add(
                FieldProblem(
                    field: "offset", detail: "offset is a number from 0 to {maximum}.",
                    ["maximum": String(Self.maxOffset)]))
        }
        try validator.finish()
        self.limit = limit
        self.offset = offset
    }
}
