import SQLKit

extension SQLRow {
    /// The column's text as a case of `type` (a role, a metric, a kind). Campus writes only its
    /// cases, so any other text is a damaged row, refused with ``StoreError/damaged(_:)`` rather
    /// than read as some default case.
    func decodeCase<Value: RawRepresentable>(column: String, as type: Value.Type) throws -> Value
    where Value.RawValue == String {
        let text = try decode(column: column, as: String.self)
        guard let value = Value(rawValue: text) else {
            throw StoreError.damaged("\(column): \"\(text.prefix(40))\" is no \(Value.self)")
        }
        return value
    }
}
