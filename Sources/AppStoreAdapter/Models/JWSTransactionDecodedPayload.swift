/// The decoded payload of a signed transaction (`signedTransactionInfo`), as Apple documents
/// `JWSTransactionDecodedPayload`.
///
/// Every field is optional because Apple omits fields that do not apply; unknown fields are
/// ignored so a newer payload still decodes.
public struct JWSTransactionDecodedPayload: Hashable, Sendable, Codable {
    /// The transaction ID of the original purchase; stable across renewals and restores.
    public var originalTransactionId: String?
    /// This transaction's unique ID.
    public var transactionId: String?
    /// The ID of a subscription purchase event across devices, including renewals.
    public var webOrderLineItemId: String?
    /// The app's bundle ID.
    public var bundleId: String?
    /// The product identifier.
    public var productId: String?
    /// The subscription group of a subscription product.
    public var subscriptionGroupIdentifier: String?
    /// When the App Store charged the user (or the renewal happened).
    public var purchaseDate: AppStoreTimestamp?
    /// When the original transaction was purchased.
    public var originalPurchaseDate: AppStoreTimestamp?
    /// When a subscription expires or renews.
    public var expiresDate: AppStoreTimestamp?
    /// How many units of a consumable were bought. `SignedDataVerifier` refuses a value outside
    /// `1...AppStorePayloadLimits.quantityMax`.
    public var quantity: Int?
    /// The kind of in-app purchase.
    public var type: TransactionType?
    /// The UUID the app attached to the purchase to link it to its own account.
    public var appAccountToken: String?
    /// Whether the user bought it or has it through Family Sharing.
    public var inAppOwnershipType: InAppOwnershipType?
    /// When the App Store signed this payload.
    public var signedDate: AppStoreTimestamp?
    /// Why Apple refunded or revoked the transaction, present only then.
    public var revocationReason: RevocationReason?
    /// When Apple refunded or revoked the transaction.
    public var revocationDate: AppStoreTimestamp?
    /// What kind of refund or revocation applies (full, prorated, Family Sharing), present only then.
    public var revocationType: RevocationType?
    /// How much of the transaction Apple refunded or revoked, in milliunits of a percent
    /// (33333 is 33.333 %, 100000 all of it), for the whole quantity; present only for a refund
    /// that was not reversed. `SignedDataVerifier` refuses a value outside 0...100000.
    public var revocationPercentage: Int32?
    /// Whether the user upgraded to another subscription in the group.
    public var isUpgraded: Bool?
    /// The kind of subscription offer applied.
    public var offerType: OfferType?
    /// The identifier of the offer applied.
    public var offerIdentifier: String?
    /// The environment the transaction happened in.
    public var environment: AppStoreEnvironment?
    /// The three-letter code of the storefront's country.
    public var storefront: String?
    /// Apple's identifier of the storefront.
    public var storefrontId: String?
    /// Whether this is a purchase or an automatic renewal.
    public var transactionReason: TransactionReason?
    /// The ISO 4217 currency code of `price`.
    public var currency: String?
    /// The price in milliunits of `currency` (1990 is 1.99).
    public var price: Int64?
    /// How a subscription offer is paid.
    public var offerDiscountType: OfferDiscountType?
    /// The app transaction ID of the app download this purchase belongs to.
    public var appTransactionId: String?
    /// The ISO 8601 duration of the offer applied, such as `P1M`.
    public var offerPeriod: String?

    /// An empty payload, for building one field by field.
    public init() {}
}

extension JWSTransactionDecodedPayload: SignedPayload {
    /// Apple signs transactions with a signedDate.
    var effectiveSigningDate: AppStoreTimestamp? { signedDate }
}
