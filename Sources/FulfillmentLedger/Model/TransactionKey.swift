/// The ledger key of one purchase: unique across all players in the ledger. It names the
/// purchase, not the delivery (see `VerifiedTransaction.ledgerKey(for:)`).
public struct TransactionKey: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    /// The store that issued the transaction.
    public var store: PlatformStore
    /// The store's ID of the purchase: the App Store `originalTransactionId` of a
    /// non-consumable or `transactionId` of a consumable, the Google Play purchase token, the
    /// test store's transaction ID.
    public var transactionID: String

    /// Creates a key.
    public init(store: PlatformStore, transactionID: String) {
        self.store = store
        self.transactionID = transactionID
    }

    /// `store/transactionID`, for logs and messages.
    public var description: String { "\(store.rawValue)/\(transactionID)" }

    /// Orders by store, then transaction ID, for stable output.
    public static func < (lhs: TransactionKey, rhs: TransactionKey) -> Bool {
        (lhs.store.rawValue, lhs.transactionID) < (rhs.store.rawValue, rhs.transactionID)
    }
}
