import Foundation

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
        /// Periods the ledger said it granted, with their ends.
        var granted: [String: Date] = [:]
        /// Granted periods whose refund the ledger applied.
        var refunded: Set<String> = []
        /// The end of a grace period the ledger was told of, after the latest grant.
        var graceEnd: Date?
        /// A failed renewal or an expiry was applied after the latest grant.
        var lapsed = false
        /// The latest store date of what the chain's state was taken from.
        var stateSignedAt = Date.distantPast

        /// The end of the latest period granted.
        var latestEnd: Date? { granted.values.max() }
        /// The latest period granted.
        var latestPeriodID: String? { granted.max { $0.value < $1.value }?.key }
    }

    /// The players who only subscribe.
    static let subscribers = ["subscriber-0", "subscriber-1", "subscriber-2"]

    var chains: [String: Chain] = [:]
    /// Signed notifications held back, delivered at a later step (late and out of order).
    var delayed: [(player: String, payload: String, signedAt: Date, apply: (inout Chain) -> Void)] = []
}
