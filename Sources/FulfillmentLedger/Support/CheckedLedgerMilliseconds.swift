import Foundation

extension Date {
    /// The milliseconds since 1970 a date from outside may carry: 1970-01-01T00:00:00.000Z through
    /// 2199-12-31T23:59:59.999Z. Inside it `Date(ledgerMilliseconds:)` round-trips exactly through
    /// `ledgerMilliseconds` (binary floating point loses whole milliseconds only past 2^33
    /// seconds, in 2242); far outside it `ledgerMilliseconds` traps.
    public static let ledgerMillisecondsRange: ClosedRange<Int64> = 0...7_258_118_399_999

    /// Whether this date lies in `ledgerMillisecondsRange`, where the ledger stores it exactly.
    public var isInLedgerRange: Bool {
        let milliseconds = timeIntervalSince1970 * 1000
        return milliseconds.isFinite && milliseconds >= Double(Self.ledgerMillisecondsRange.lowerBound)
            && milliseconds < Double(Self.ledgerMillisecondsRange.upperBound + 1)
    }

    /// The date of `milliseconds` since 1970, or nil when it lies outside `ledgerMillisecondsRange`.
    /// Adapters call it on every time a store sends before building a date from it.
    public static func checkedLedgerMilliseconds(_ milliseconds: Int64) -> Date? {
        guard ledgerMillisecondsRange.contains(milliseconds) else { return nil }
        return Date(ledgerMilliseconds: milliseconds)
    }
}
