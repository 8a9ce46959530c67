import Foundation

/// The facts about a transaction that a verifier has checked against the store's proof.
public struct VerifiedTransaction: Hashable, Sendable, Codable {
    /// The issuing store.
    public var store: PlatformStore
    /// The store's ID of this delivery (App Store `transactionId`, Play purchase token). A
    /// restore or a new device gets a new App Store `transactionId` for the same purchase.
    public var transactionID: String
    /// The store's ID of the original purchase, the same on every delivery of it (App Store
    /// `originalTransactionId`); nil when the store has no such ID.
    public var originalTransactionID: String?
    /// The store's product ID (not the catalog's product ID).
    public var storeProductID: String
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
    /// What the store says the product is (App Store `type`); nil when its proof does not say.
    /// The pipeline refuses a purchase whose type disagrees with the catalog's kind.
    public var storeProductType: StoreProductType?
    /// Whether this is a family member's copy of a purchase shared through Family Sharing (App
    /// Store `inAppOwnershipType` FAMILY_SHARED), not the purchaser's own: the product's
    /// `familySharing` policy then says what it grants.
    public var isFamilyShared: Bool
    /// For a period of an auto-renewable subscription, the period's ID, chain and expiry; nil
    /// for other products. A subscription purchase without them is refused, never granted.
    public var subscriptionPeriod: SubscriptionPeriodFacts?
    /// The store's order ID of this delivery (Google Play `orderId`, `GPA.…`), kept on the
    /// ledger record so a purchase is found from the player's receipt; nil when the store's
    /// proof carries none.
    public var orderID: String?
    /// The store's stable ID of the buyer's account for this app (App Store `appTransactionId`,
    /// the same after redownloads and on new devices); nil when the proof carries none. A
    /// purchase of an account whose consent was rescinded is refused `consentRescinded`.
    public var storeAccountID: String?
    /// The purchase option (and offer) a one-time product was bought through, when the store
    /// sells it several ways (Google Play productsv2); nil when its proof does not say. The
    /// pipeline grants the catalog product mapping it, if one does.
    public var purchaseOption: StorePurchaseOption?

    /// Creates verified facts.
    public init(
        store: PlatformStore, transactionID: String, originalTransactionID: String? = nil, storeProductID: String,
        accountBinding: String?, quantity: Int, state: PurchaseState, environment: StoreEnvironment,
        purchaseDate: Date, revocationDate: Date? = nil, storeProductType: StoreProductType? = nil,
        isFamilyShared: Bool = false, subscriptionPeriod: SubscriptionPeriodFacts? = nil, orderID: String? = nil,
        storeAccountID: String? = nil, purchaseOption: StorePurchaseOption? = nil
    ) {
        self.purchaseOption = purchaseOption
        self.orderID = orderID
        self.storeAccountID = storeAccountID
        self.store = store
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.storeProductID = storeProductID
        self.accountBinding = accountBinding
        self.quantity = quantity
        self.state = state
        self.environment = environment
        self.purchaseDate = purchaseDate
        self.revocationDate = revocationDate
        self.storeProductType = storeProductType
        self.isFamilyShared = isFamilyShared
        self.subscriptionPeriod = subscriptionPeriod
    }

    /// The key of this delivery, by the store's ID of it.
    public var key: TransactionKey { TransactionKey(store: store, transactionID: transactionID) }

    /// The ledger key of the purchase this delivery belongs to, for a product of `kind`.
    ///
    /// A ledger key names the purchase, not the delivery: a non-consumable is restored, or
    /// bought on a new device, with a new App Store `transactionId` but the same
    /// `originalTransactionId`, so its key is the original ID. A consumable's key is its
    /// own transaction ID (for the App Store the two are equal). A subscription period's key is
    /// the period's own ID (App Store `webOrderLineItemId`), the same on every delivery of it.
    public func ledgerKey(for kind: ProductKind) -> TransactionKey {
        switch kind {
        case .consumable:
            return key
        case .nonConsumable:
            guard let original = originalTransactionID, !original.isEmpty else { return key }
            return TransactionKey(store: store, transactionID: original)
        case .autoRenewable:
            guard let period = subscriptionPeriod, !period.periodID.isEmpty else { return key }
            // A family member's copy is a chain of its own: keyed with its chain, it can never
            // be taken for the purchaser's period, whatever period ID the store gives it.
            let periodKey = isFamilyShared ? period.periodID + "/" + period.chainID : period.periodID
            return TransactionKey(store: store, transactionID: periodKey)
        }
    }
}

/// The verifier's verdict: verified facts, or the reason the proof was not accepted.
public enum VerificationResult: Hashable, Sendable {
    /// The proof checked out; these facts may be used.
    case verified(VerifiedTransaction)
    /// The proof is invalid (bad signature, wrong app, malformed); never grants.
    case invalid(reason: String)
}
