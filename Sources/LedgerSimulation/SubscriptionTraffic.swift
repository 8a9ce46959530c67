import AppStoreSimulator
import Foundation
import FulfillmentLedger

/// The simulator's own account of each subscriber's App Store subscription, kept apart from
/// the one-time purchase model: subscribers buy nothing else, so their gems come only from
/// subscription periods and can be checked exactly.
struct SubscriptionTraffic {
    /// One subscriber's chain, as the simulator sold and delivered it.
    struct Chain {
        var originalTransactionID: String
        /// The latest transaction the store sold on the chain.
        var latestTransactionID: String
        /// Every period sold: transaction ID to period ID (`webOrderLineItemId`).
        var periodOfTransaction: [String: String] = [:]
        /// Every period sold: its catalog product and its start (the transaction's purchase date).
        var productOfPeriod: [String: String] = [:]
        var startOfPeriod: [String: Date] = [:]
        /// Periods the ledger said it granted, with their ends.
        var granted: [String: Date] = [:]
        /// Periods whose refund the ledger recorded: applied to a granted period, or waiting for
        /// a period not granted yet, which its grant takes back at once.
        var refunded: Set<String> = []
        /// The end of a grace period the ledger was told of, after the latest grant.
        var graceEnd: Date?
        /// The store's most recent word on the chain is a failed renewal or an expiry.
        var lapsed = false
        /// The latest store date of what the chain's state was taken from.
        var stateSignedAt = Date.distantPast

        /// The latest period granted: the one that started last (an upgrade starts at once and may
        /// end before the longer period it replaces), of two that started together the later end.
        var latestPeriodID: String? {
            granted.keys.max { (startOfPeriod[$0] ?? .distantPast, granted[$0]!) < (startOfPeriod[$1] ?? .distantPast, granted[$1]!) }
        }
        /// The end of the latest period granted.
        var latestEnd: Date? { latestPeriodID.flatMap { granted[$0] } }
        /// Granted periods whose refund has taken their rewards back.
        var grantedRefunds: Set<String> { refunded.filter { granted[$0] != nil } }

        /// Whether a period starting at `start` and ending at `end` would replace the latest
        /// granted one, as the ledger decides it (`SubscriptionChains.supersedes`).
        func supersedes(start: Date, end: Date) -> Bool {
            guard let latest = latestPeriodID, let latestStart = startOfPeriod[latest], let latestEnd else { return true }
            let start = start.truncatedToLedgerMilliseconds
            let latestStartMilliseconds = latestStart.truncatedToLedgerMilliseconds
            if start != latestStartMilliseconds { return start > latestStartMilliseconds }
            return end.truncatedToLedgerMilliseconds > latestEnd.truncatedToLedgerMilliseconds
        }
    }

    /// The players who only subscribe.
    static let subscribers = ["subscriber-0", "subscriber-1", "subscriber-2"]

    var chains: [String: Chain] = [:]
    /// Most notifications held back in each list; beyond it they are delivered at once.
    static let heldNotificationCountMax = 64

    /// Signed notifications held back, delivered at a later step (late and out of order).
    var delayed: [(player: String, payload: String, signedAt: Date, apply: (inout Chain) -> Void)] = []
    /// Signed notifications that carry a period (DID_RENEW, an upgrade), held back: delivered at a
    /// later step, after state notifications Apple signed later, or after the period's refund.
    var delayedPeriods: [(player: String, signed: SignedAppStoreTransaction, payload: String)] = []

    /// One Google Play purchase token of a Play subscriber, as the simulator sold and delivered it.
    struct PlayChain {
        /// The purchase token: the chain's key in the ledger.
        var token: String
        /// Periods the ledger said it granted, by order ID, with the end Google reported then.
        var granted: [String: Date] = [:]
        /// Periods Google voided and the ledger recorded, granted or not yet: a void read before
        /// its period waits for it, and the grant takes it back.
        var refunded: Set<String> = []
        /// The latest `expiryTime` (a grace end included) Google reported when the ledger read the
        /// token: the ledger can know of no later end, so it must never entitle past it.
        var bound: Date?

        /// Voided periods the ledger granted: each has taken its gems back.
        var grantedRefundCount: Int { refunded.filter { granted[$0] != nil }.count }
    }

    /// The players who only subscribe on Google Play, apart from the App Store subscribers so each
    /// store's periods are the only source of their gems.
    static let playSubscribers = ["play-subscriber-0", "play-subscriber-1"]

    /// Each Play subscriber's tokens, oldest first; the last is the one the traffic acts on.
    var playChains: [String: [PlayChain]] = [:]
    /// Push bodies held back, delivered at a later step (late and out of order).
    var delayedPushes: [(player: String, token: String, body: Data)] = []
}
