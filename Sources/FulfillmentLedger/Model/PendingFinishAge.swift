import Foundation

/// A finish still owed to the platform, with its age: one row of a doctor report, on any engine.
public struct PendingFinishAge: Hashable, Sendable, Codable {
    /// The transaction.
    public var key: TransactionKey
    /// The player.
    public var playerID: String
    /// Seconds since the grant committed.
    public var ageSeconds: Int64
    /// Failed attempts so far.
    public var attemptCount: Int
    /// The last failure.
    public var lastError: String?
    /// Older than the warning age: Google Play refunds what is not acknowledged in 3 days.
    public var overdue: Bool

    /// Creates a row.
    public init(key: TransactionKey, playerID: String, ageSeconds: Int64, attemptCount: Int, lastError: String?, overdue: Bool) {
        self.key = key
        self.playerID = playerID
        self.ageSeconds = ageSeconds
        self.attemptCount = attemptCount
        self.lastError = lastError
        self.overdue = overdue
    }

    /// The instant at or before which a pending finish is overdue, in the ledger's milliseconds:
    /// `age >= warningAgeSeconds`. The clamp keeps the product in range for any warning age.
    package static func overdueCutoffMilliseconds(now: Date, warningAgeSeconds: Int64) -> Int64 {
        now.ledgerMilliseconds - min(max(warningAgeSeconds, 0), Int64.max / 4_000) * 1000
    }

    /// The row for `pending`, aged at `now` against `cutoffMilliseconds`.
    package init(_ pending: PendingFinish, now: Date, cutoffMilliseconds: Int64) {
        let enqueuedAtMilliseconds = pending.enqueuedAt.ledgerMilliseconds
        self.init(
            key: pending.key, playerID: pending.playerID,
            ageSeconds: max(0, (now.ledgerMilliseconds - enqueuedAtMilliseconds) / 1000),
            attemptCount: pending.attemptCount, lastError: pending.lastError,
            overdue: enqueuedAtMilliseconds <= cutoffMilliseconds)
    }
}

extension PendingFinishCursor {
    /// The cursor that starts the page after `pending`.
    package init(after pending: PendingFinish) {
        self.init(enqueuedAtMilliseconds: pending.enqueuedAt.ledgerMilliseconds, key: pending.key)
    }
}
