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
