import Dispatch
import Foundation
import FulfillmentLedger

/// A finish mark waiting to ride in the committer's next transaction.
struct CarriedFinishMark: Sendable {
    let key: TransactionKey
    /// The mark's time in the ledger's milliseconds, as the row will store it.
    let finishedAtMilliseconds: Int64
    /// When it was carried, for `finishMarkWaitMicrosecondsMax`.
    let carriedAt: DispatchTime
}

/// The carried finish marks not yet settled (committed or lost), by key: what a read
/// through the store lays over its snapshot, so a mark shows once `markFinished` returns.
///
/// A reader takes this before its snapshot starts, and a mark leaves it only after its
/// transaction commits (or fails), so every mark is either here or in the snapshot.
struct UnsettledFinishMarks: Sendable {
    private(set) var milliseconds: [TransactionKey: Int64] = [:]

    /// None.
    static let none = UnsettledFinishMarks()

    var isEmpty: Bool { milliseconds.isEmpty }
    var count: Int { milliseconds.count }

    func contains(_ key: TransactionKey) -> Bool { milliseconds[key] != nil }

    /// Adds a mark; false when one for the key is already unsettled (it stamps first).
    mutating func insert(_ mark: CarriedFinishMark) -> Bool {
        guard milliseconds[mark.key] == nil else { return false }
        milliseconds[mark.key] = mark.finishedAtMilliseconds
        return true
    }

    mutating func remove(_ key: TransactionKey) { milliseconds[key] = nil }

    /// The record as it reads once the marks settle: stamped finished if a mark is carried
    /// for it, as `stampFinishedSQL` would (only a record not yet finished).
    func apply(to record: TransactionRecord) -> TransactionRecord {
        guard record.finishedAt == nil, let finishedAt = milliseconds[record.key] else { return record }
        var stamped = record
        stamped.finishedAt = Date(ledgerMilliseconds: finishedAt)
        return stamped
    }
}
