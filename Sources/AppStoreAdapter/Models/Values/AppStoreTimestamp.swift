import Foundation
import FulfillmentLedger

/// An App Store date: whole milliseconds since 1970-01-01 UTC.
///
/// Decodes a JSON integer or a number with a fraction (Xcode signs dates such as
/// `1697679936049.7297`) and truncates the fraction, as Apple's own models do. Encodes as an
/// integer. Any value a 64-bit integer holds decodes and survives a round trip (Xcode signs an
/// app's `originalPurchaseDate` as 0001-01-01, `-62135769600000`); `date` is only built inside
/// `Date.ledgerMillisecondsRange`, and `SignedDataVerifier` refuses a payload whose dates the
/// ledger reads lie outside it.
public struct AppStoreTimestamp: Hashable, Sendable, Comparable, Codable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    /// Milliseconds since 1970-01-01 UTC.
    public let milliseconds: Int64

    /// Wraps milliseconds.
    public init(milliseconds: Int64) { self.milliseconds = milliseconds }

    /// The date, truncated to whole milliseconds.
    public init(date: Date) {
        milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded(.towardZero))
    }

    /// Wraps a literal number of milliseconds.
    public init(integerLiteral value: Int64) { milliseconds = value }

    /// The moment as a Date, or nil outside `Date.ledgerMillisecondsRange` (1970 through 2199),
    /// where the ledger's millisecond conversions would not round-trip or would trap.
    public var date: Date? { Date.checkedLedgerMilliseconds(milliseconds) }

    /// Decodes an integer, or a finite number with a fraction that it truncates toward zero.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Integers first: a Double would round values past 2^53 milliseconds.
        if let whole = try? container.decode(Int64.self) {
            milliseconds = whole
            return
        }
        let value = try container.decode(Double.self)
        // Int64(_:) traps outside its range, so the bound is checked before converting.
        guard value.isFinite, abs(value) < 9.2e18 else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "timestamp \(value) out of range")
        }
        milliseconds = Int64(value.rounded(.towardZero))
    }

    /// Encodes the whole milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(milliseconds)
    }

    /// Orders by time.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.milliseconds < rhs.milliseconds }

    /// The milliseconds.
    public var description: String { String(milliseconds) }
}
