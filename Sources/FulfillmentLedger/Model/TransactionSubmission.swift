/// A transaction as delivered by a client, a store notification or a recovery scan: not yet trusted.
///
/// The identifiers say which transaction the caller means; the verifier reads the signed
/// `payload` and only what it verifies is used to grant.
public struct TransactionSubmission: Hashable, Sendable, Codable {
    /// The store the transaction claims to come from.
    public var store: PlatformStore
    /// The store's transaction ID as claimed.
    public var transactionID: String
    /// The store's product ID as claimed (not the catalog's product ID).
    public var storeProductID: String
    /// The game's player this purchase is for.
    public var playerID: String
    /// The number of units bought; 1 unless the store supports quantities.
    public var quantity: Int
    /// The store's proof: a StoreKit 2 JWS, a Google Play purchase token, or a test-store document.
    public var payload: String

    /// Creates a submission.
    public init(
        store: PlatformStore, transactionID: String, storeProductID: String, playerID: String,
        quantity: Int = 1, payload: String
    ) {
        self.store = store
        self.transactionID = transactionID
        self.storeProductID = storeProductID
        self.playerID = playerID
        self.quantity = quantity
        self.payload = payload
    }

    /// The ledger key this submission refers to.
    public var key: TransactionKey { TransactionKey(store: store, transactionID: transactionID) }
}
