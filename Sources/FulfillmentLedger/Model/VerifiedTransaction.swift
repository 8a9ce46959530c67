import Foundation

/// The facts about a transaction that a verifier has checked against the store's proof.
public struct VerifiedTransaction: Hashable, Sendable, Codable {
    /// The issuing store.
    public var store: PlatformStore
    /// The store's transaction ID.
    public var transactionID: String
    /// The store's product ID.
    public var productID: String
    /// The account the store binds the purchase to, when it carries one (App Store
    /// `appAccountToken`, Google Play `obfuscatedExternalAccountId`); nil when it does not.
    public var accountBinding: String?
    /// Units bought.
    public var quantity: Int
    /// Payment state.
    public var state: PurchaseState
    /// The environment the purchase was made in.
    public var environment: StoreEnvironment
    /// When the store says the purchase happened; counts toward weekly limits.
    public var purchaseDate: Date
    /// When the store revoked the transaction (refund, Family Sharing removal), if it did.
    public var revocationDate: Date?

    /// Creates verified facts.
    public init(
        store: PlatformStore, transactionID: String, productID: String, accountBinding: String?,
        quantity: Int, state: PurchaseState, environment: StoreEnvironment, purchaseDate: Date,
        revocationDate: Date? = nil
    ) {
        self.store = store
        self.transactionID = transactionID
        self.productID = productID
        self.accountBinding = accountBinding
        self.quantity = quantity
        self.state = state
        self.environment = environment
        self.purchaseDate = purchaseDate
        self.revocationDate = revocationDate
    }

    /// The ledger key of this transaction.
    public var key: TransactionKey { TransactionKey(store: store, transactionID: transactionID) }
}

/// The verifier's verdict: verified facts, or the reason the proof was not accepted.
public enum VerificationResult: Hashable, Sendable {
    /// The proof checked out; these facts may be used.
    case verified(VerifiedTransaction)
    /// The proof is invalid (bad signature, wrong app, malformed); never grants.
    case invalid(reason: String)
}
