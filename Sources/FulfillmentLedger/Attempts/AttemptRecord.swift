import Foundation

/// One submission that did not end in a grant, kept in the attempts journal so support can
/// answer "I paid and got nothing" when the ledger holds no record of the purchase.
///
/// The journal only ever explains: nothing in it is read by the pipeline, so it never
/// affects a grant. It is bounded by `AttemptRetention`.
public struct AttemptRecord: Hashable, Sendable, Codable {
    /// The journal's order of arrival, assigned by the store (0 before it is written).
    public var sequence: Int64
    /// The store the submission named.
    public var store: PlatformStore
    /// The store's ID of the delivery as submitted (App Store `transactionId`, Play purchase token).
    public var deliveryID: String
    /// The ID that names the purchase on every delivery, when the verifier vouched for one
    /// that differs from `deliveryID` (App Store `originalTransactionId`, a subscription period's
    /// `webOrderLineItemId` or Play order ID).
    public var purchaseID: String?
    /// The store's order ID, when the verifier read one (Google Play `orderId`, `GPA.…`).
    public var orderID: String?
    /// The store's product ID as submitted.
    public var storeProductID: String
    /// The player the submission was for; empty for a purchase the store delivered without its
    /// player whose account token names none (`accountUnassigned`).
    public var playerID: String
    /// Rejected or failed.
    public var outcome: AttemptOutcome
    /// The rejection reason (`unknownProduct`) or the error's code name (`ledger.storage`).
    public var code: String
    /// Why, in words, cut to `AttemptRetention.reasonByteCountMax`.
    public var reason: String
    /// When the ledger first answered so.
    public var at: Date
    /// How many submissions this row stands for: the same delivery, player, outcome, code and
    /// entry point again, right after it, adds to this count instead of a row, so a client
    /// retrying a pending or refused purchase in a loop fills nothing.
    public var repeatCount: Int
    /// When the latest of them arrived (`at` for a single one).
    public var lastAt: Date
    /// Which way the submission came.
    public var entryPoint: DeliveryEntryPoint
    /// Whether the store's proof verified. Unverified attempts are anyone's input and are
    /// kept under a budget of their own, so a flood of them never evicts a verified one.
    public var isVerified: Bool

    /// Creates a record; `sequence` is assigned when it is written.
    public init(
        sequence: Int64 = 0, store: PlatformStore, deliveryID: String, purchaseID: String?, orderID: String?,
        storeProductID: String, playerID: String, outcome: AttemptOutcome, code: String, reason: String, at: Date,
        entryPoint: DeliveryEntryPoint, isVerified: Bool, repeatCount: Int = 1, lastAt: Date? = nil
    ) {
        self.repeatCount = repeatCount
        self.lastAt = (lastAt ?? at).truncatedToLedgerMilliseconds
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
        self.at = at.truncatedToLedgerMilliseconds
        self.entryPoint = entryPoint
        self.isVerified = isVerified
    }

    /// Whether `next` is this attempt again (same delivery, player, outcome, code, entry point
    /// and budget), to be counted on this row rather than written as a new one.
    public func isRepeated(by next: AttemptRecord) -> Bool {
        store == next.store && deliveryID == next.deliveryID && playerID == next.playerID && outcome == next.outcome
            && code == next.code && entryPoint == next.entryPoint && isVerified == next.isVerified
            && storeProductID == next.storeProductID
    }

    /// Whether `id` names this attempt's delivery, purchase or order.
    public func matches(_ id: String) -> Bool { deliveryID == id || purchaseID == id || orderID == id }

    /// One line in words, for the CLI and the console.
    public var summary: String {
        let how = outcome == .rejected ? "rejected (\(code))" : "failed (\(code))"
        let times = repeatCount > 1 ? " (\(repeatCount) times, last at \(lastAt.ledgerISO8601))" : ""
        let player = playerID.isEmpty ? "no player" : playerID
        return "\(entryPoint) delivery\(times) of \(storeProductID) for \(player) \(how): \(reason)"
    }
}
