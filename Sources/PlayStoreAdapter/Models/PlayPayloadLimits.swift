import Foundation
import FulfillmentLedger

/// The adapter's own limits on what a Google Play payload may carry, and the checked
/// conversions every outside time and quantity goes through.
///
/// Google's purchase tokens are opaque and long (its own sample runs to about 1,950
/// characters), so the token limit leaves room above that. The ledger's own identifier limit
/// (`LedgerConfiguration.identifierByteCountMax`) applies on top of these to the event and
/// transaction IDs built from them.
public enum PlayPayloadLimits {
    /// Longest purchase token accepted, in UTF-8 bytes.
    public static let purchaseTokenByteCountMax = 4_096
    /// Longest order ID accepted (`GPA.1234-5678-9012-34567` is 24 bytes).
    public static let orderIDByteCountMax = 256
    /// Longest Pub/Sub `messageId` accepted (Pub/Sub's are decimal strings of about 16 digits).
    public static let messageIDByteCountMax = 256
    /// Largest quantity (`quantity`, `voidedQuantity`) accepted; the ledger's `quantityMax` also applies.
    public static let quantityMax = 10_000
    /// Most line items of one productsv2 purchase read.
    public static let lineItemCountMax = 100

    /// A millisecond field's value: nil when absent, else a decimal integer within
    /// `Date.ledgerMillisecondsRange`.
    static func milliseconds(_ text: String?, field: String) throws(PlayPayloadError) -> Int64? {
        guard let text else { return nil }
        guard let milliseconds = Int64(text) else { throw .malformedMilliseconds(field: field, value: text) }
        guard Date.ledgerMillisecondsRange.contains(milliseconds) else {
            throw .millisecondsOutOfRange(field: field, value: text)
        }
        return milliseconds
    }

    /// The date of a millisecond field: nil when absent, else range-checked.
    static func date(_ text: String?, field: String) throws(PlayPayloadError) -> Date? {
        try milliseconds(text, field: field).flatMap(Date.checkedLedgerMilliseconds)
    }

    /// The date of an RFC 3339 timestamp field (`2026-11-02T10:00:00.045Z`, or with an offset),
    /// truncated to milliseconds: nil when absent, else range-checked like a millisecond field.
    static func timestamp(_ text: String?, field: String) throws(PlayPayloadError) -> Date? {
        guard let text else { return nil }
        guard text.utf8.count <= timestampByteCountMax,
            // Strict: `10:99` or February 30 is refused, not read as the next hour or month.
            let date = RFC3339Timestamp.parse(text)
        else { throw .malformedTimestamp(field: field, value: text) }
        let milliseconds = (date.timeIntervalSince1970 * 1_000).rounded(.down)
        guard milliseconds >= Double(Date.ledgerMillisecondsRange.lowerBound),
            milliseconds <= Double(Date.ledgerMillisecondsRange.upperBound)
        else { throw .millisecondsOutOfRange(field: field, value: text) }
        return Date.checkedLedgerMilliseconds(Int64(milliseconds))
    }

    /// Longest RFC 3339 timestamp accepted (`2026-11-02T10:00:00.045123456+05:30` is 35 bytes).
    static let timestampByteCountMax = 64

    /// `value` when present and within `range`, else a `quantityOutOfRange` error.
    static func quantity(_ value: Int?, field: String, in range: ClosedRange<Int>) throws(PlayPayloadError) -> Int? {
        guard let value else { return nil }
        guard range.contains(value) else { throw .quantityOutOfRange(field: field, value: value) }
        return value
    }

    /// `value` when it is non-empty and at most `byteCountMax` bytes long.
    static func identifier(_ value: String?, field: String, byteCountMax: Int) throws(PlayPayloadError) -> String {
        guard let value, !value.isEmpty else { throw .missingField(field) }
        guard value.utf8.count <= byteCountMax else {
            throw .identifierTooLong(field: field, byteCount: value.utf8.count)
        }
        return value
    }
}
