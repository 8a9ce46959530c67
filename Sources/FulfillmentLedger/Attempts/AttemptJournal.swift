import Foundation

/// The rules of the attempts journal every store applies the same way: how many of a budget's
/// oldest rows a write removes, and from when a row has expired.
package enum AttemptJournal {
    /// How many of the budget's oldest rows to remove once it holds `count`: what is over its
    /// bound, at most `AttemptRetention.expiredCountPerWriteMax` per write (a bound lowered
    /// meanwhile is reached over the next writes).
    package static func excess(count: Int64, retention: AttemptRetention, verified: Bool) -> Int64 {
        let over = count - Int64(retention.countMax(verified: verified))
        return max(0, min(over, Int64(AttemptRetention.expiredCountPerWriteMax)))
    }

    /// Rows older than this have expired when a row is written at `now`.
    package static func expiryCutoff(_ now: Date, retention: AttemptRetention) -> Date {
        Date(ledgerMilliseconds: now.ledgerMilliseconds - retention.ageSecondsMax * 1_000)
    }
}

/// An attempts journal row as every store adapter reads it back, turned into an
/// `AttemptRecord` in one place so the engines cannot decode the same row differently.
package struct StoredAttemptRow: Sendable {
    package var sequence: Int64
    package var store, deliveryID: String
    package var purchaseID, orderID: String?
    package var storeProductID, playerID, outcome, code, reason: String
    package var atMilliseconds: Int64
    package var entryPoint: String
    package var verified: Bool
    package var repeatCount, lastAtMilliseconds: Int64

    /// Takes every column, in the order of the attempts table.
    package init(
        sequence: Int64, store: String, deliveryID: String, purchaseID: String?, orderID: String?,
        storeProductID: String, playerID: String, outcome: String, code: String, reason: String,
        atMilliseconds: Int64, entryPoint: String, verified: Bool, repeatCount: Int64, lastAtMilliseconds: Int64
    ) {
        self.repeatCount = repeatCount
        self.lastAtMilliseconds = lastAtMilliseconds
        self.sequence = sequence
        self.store = store
        self.deliveryID = deliveryID
        self.purchaseID = purchaseID
        self.orderID = orderID
        self.storeProductID = storeProductID
        self.playerID = playerID
        self.outcome = outcome
        self.code = code
        self.reason = reason
        self.atMilliseconds = atMilliseconds
        self.entryPoint = entryPoint
        self.verified = verified
    }

    /// The record; `corrupt` names the adapter's error for an outcome the ledger never writes.
    package func record(corrupt: (String) -> LedgerError) throws(LedgerError) -> AttemptRecord {
        guard let outcome = AttemptOutcome(rawValue: outcome) else { throw corrupt("attempt outcome \(self.outcome)") }
        return AttemptRecord(
            sequence: sequence, store: PlatformStore(rawValue: store), deliveryID: deliveryID, purchaseID: purchaseID,
            orderID: orderID, storeProductID: storeProductID, playerID: playerID, outcome: outcome, code: code,
            reason: reason, at: Date(ledgerMilliseconds: atMilliseconds), entryPoint: DeliveryEntryPoint(rawValue: entryPoint),
            isVerified: verified, repeatCount: Int(repeatCount), lastAt: Date(ledgerMilliseconds: lastAtMilliseconds))
    }
}
