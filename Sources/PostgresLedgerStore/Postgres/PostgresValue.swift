import FulfillmentLedger

/// A statement parameter: the data layer's own values, sent in PostgreSQL's text format. Text
/// must not hold a NUL byte, which PostgreSQL text cannot store.
package typealias PostgresValue = SQLValue

extension SQLValue {
    /// The text-format form libpq sends, nil for NULL.
    var textFormat: String? {
        switch self {
        case .null: nil
        case .text(let text): text
        case .integer(let number): String(number)
        case .bool(let flag): flag ? "true" : "false"
        }
    }
}
