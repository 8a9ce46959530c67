/// What the platform needs to finish one transaction.
public struct FinishRequest: Hashable, Sendable {
    /// The transaction.
    public var key: TransactionKey
    /// The store's ID of the delivery that was granted: the key's ID, except for a subscription
    /// period, whose key is the period's ID (a Play period is finished by its purchase token).
    public var storeTransactionID: String
    /// The store's product ID.
    public var storeProductID: String
    /// The player it was granted to.
    public var playerID: String
    /// Google Play consumes consumables and acknowledges non-consumables.
    public var productKind: ProductKind

    /// Creates a request.
    public init(
        key: TransactionKey, storeProductID: String, playerID: String, productKind: ProductKind,
        storeTransactionID: String? = nil
    ) {
        self.key = key
        self.storeTransactionID = storeTransactionID ?? key.transactionID
        self.storeProductID = storeProductID
        self.playerID = playerID
        self.productKind = productKind
    }

    /// The request for a recorded transaction.
    public init(record: TransactionRecord) {
        self.init(
            key: record.key, storeProductID: record.storeProductID, playerID: record.playerID,
            productKind: record.productKind, storeTransactionID: record.storeTransactionID)
    }
}

/// Port: tells the platform a transaction is fulfilled (StoreKit `finish()`, Play
/// acknowledge or consume). Called only after the grant is durable.
public protocol PlatformFinisher: Sendable {
    /// Finishes a transaction. Must be idempotent: recovery may call it again for a
    /// transaction whose earlier finish succeeded but was not yet marked.
    func finish(_ request: FinishRequest) async throws(LedgerError)
}
