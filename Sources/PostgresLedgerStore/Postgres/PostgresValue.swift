/// A statement parameter, sent in PostgreSQL's text format.
package enum PostgresValue: Hashable, Sendable {
    /// SQL NULL.
    case null
    /// Text; it must not hold a NUL byte, which PostgreSQL text cannot store.
    case text(String)
    /// A 64-bit integer.
    case int64(Int64)
    /// A boolean.
    case bool(Bool)

    /// An optional text value, `null` when absent.
    package static func text(_ value: String?) -> PostgresValue { value.map { .text($0) } ?? .null }

    /// An optional integer value, `null` when absent.
    package static func int64(_ value: Int64?) -> PostgresValue { value.map { .int64($0) } ?? .null }

    /// The text-format form libpq sends, nil for NULL.
    var textFormat: String? {
        switch self {
        case .null: nil
        case .text(let text): text
        case .int64(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
