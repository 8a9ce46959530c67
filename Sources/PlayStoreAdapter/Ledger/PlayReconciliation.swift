import Foundation
import FulfillmentLedger

/// What `PlayReconciler.reconcile` found for one player: each Google Play record of theirs in
/// the ledger next to its order in the Orders API, and, when told to apply, what the voided
/// purchases sync then applied.
public struct PlayReconciliation: Hashable, Sendable, Encodable {
    /// One ledger record whose order Google reports differently.
    public struct Entry: Hashable, Sendable, Encodable {
        /// The order ID.
        public var orderID: String
        /// The ledger record's key.
        public var ledgerKey: TransactionKey
        /// The store product ID.
        public var storeProductID: String
        /// Google's `state` of the order.
        public var orderState: String
        /// Units the ledger granted.
        public var quantity: Int
        /// Units the ledger has taken back so far.
        public var ledgerRefundedQuantity: Int
        /// What the buyer paid, as Google reports it.
        public var total: PlayMoney?
        /// What Google refunded, as it reports it.
        public var refunded: PlayMoney?
    }

    /// The player.
    public var playerID: String
    /// When Google was asked.
    public var readAt: Date
    /// Orders read from Google.
    public var ordersRead = 0
    /// The player's Play records with no order ID to ask about (test purchases and promo codes
    /// have none).
    public var withoutOrderID = 0
    /// Orders Google refunded, in full or in part, that the ledger has not taken back.
    public var unappliedRefunds: [Entry] = []
    /// Orders Google reports paid (or pending) that the ledger has taken units back from: a
    /// developer's revoke, or a refund Google later reversed.
    public var refundedOnlyInLedger: [Entry] = []
    /// Orders Google cancelled before they were paid that the ledger granted.
    public var canceledButGranted: [Entry] = []
    /// Order IDs of the player's records that Google does not know.
    public var unknownToStore: [String] = []
    /// The amounts Google refunded across the player's orders, by currency: exact, from each
    /// order's refund events.
    public var refundedTotals: [String: PlayMoney] = [:]
    /// Orders whose amounts could not be read (`PlayPayloadError` text, by order ID).
    public var unreadableAmounts: [String: String] = [:]
    /// Whether the voided purchases sync ran (`apply`), and what it recorded.
    public var didApply = false
    /// Voids the sync recorded, when it ran.
    public var voidsRecorded: Int?

    /// Whether the ledger and Google agree.
    public var isClean: Bool {
        unappliedRefunds.isEmpty && refundedOnlyInLedger.isEmpty && canceledButGranted.isEmpty && unknownToStore.isEmpty
    }

    private enum CodingKeys: String, CodingKey {
        case playerID, readAt, ordersRead, withoutOrderID, unappliedRefunds, refundedOnlyInLedger, canceledButGranted
        case unknownToStore, refundedTotals, unreadableAmounts, didApply, voidsRecorded, isClean
    }

    /// Encodes the report with `isClean`.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(playerID, forKey: .playerID)
        try container.encode(readAt, forKey: .readAt)
        try container.encode(ordersRead, forKey: .ordersRead)
        try container.encode(withoutOrderID, forKey: .withoutOrderID)
        try container.encode(unappliedRefunds, forKey: .unappliedRefunds)
        try container.encode(refundedOnlyInLedger, forKey: .refundedOnlyInLedger)
        try container.encode(canceledButGranted, forKey: .canceledButGranted)
        try container.encode(unknownToStore, forKey: .unknownToStore)
        try container.encode(refundedTotals.mapValues(\.description), forKey: .refundedTotals)
        try container.encode(unreadableAmounts, forKey: .unreadableAmounts)
        try container.encode(didApply, forKey: .didApply)
        try container.encodeIfPresent(voidsRecorded, forKey: .voidsRecorded)
        try container.encode(isClean, forKey: .isClean)
    }
}
