import Foundation

/// The carried finish marks not yet settled (committed or lost), by key: what a read
/// through a store that carries marks lays over its snapshot, so a mark shows once
/// `markFinished` returns.
///
/// A reader takes this before its snapshot starts, and a mark leaves it only after its
/// transaction commits (or fails), so every mark is either here or in the snapshot.
public struct UnsettledFinishMarks: Sendable {
    private(set) var milliseconds: [TransactionKey: Int64] = [:]

    /// None.
    public static let none = UnsettledFinishMarks()

    /// Whether no mark is unsettled.
    public var isEmpty: Bool { milliseconds.isEmpty }
    /// How many marks are unsettled.
    public var count: Int { milliseconds.count }

    /// Whether a mark for `key` is unsettled.
    public func contains(_ key: TransactionKey) -> Bool { milliseconds[key] != nil }

    /// Adds a mark at `finishedAtMilliseconds`; false when one for the key is already
    /// unsettled (it stamps first).
    public mutating func insert(_ key: TransactionKey, finishedAtMilliseconds: Int64) -> Bool {
        guard milliseconds[key] == nil else { return false }
        milliseconds[key] = finishedAtMilliseconds
        return true
    }

    /// Settles the mark for `key`.
    public mutating func remove(_ key: TransactionKey) { milliseconds[key] = nil }

    /// The record as it reads once the marks settle: stamped finished if a mark is carried
    /// for it, as the finish stamp would (only a record not yet finished).
    public func apply(to record: TransactionRecord) -> TransactionRecord {
        guard record.finishedAt == nil, let finishedAt = milliseconds[record.key] else { return record }
        var stamped = record
        stamped.finishedAt = Date(ledgerMilliseconds: finishedAt)
        return stamped
    }
}
