/// A value bound to or read from a SQLite statement.
package enum SQLiteValue: Hashable, Sendable {
    case null
    case integer(Int64)
    case text(String)

    /// An optional text value, `null` when absent.
    package static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    /// An optional integer value, `null` when absent.
    package static func integer(_ value: Int64?) -> SQLiteValue { value.map { .integer($0) } ?? .null }
}
