/// The decoded payload of signed subscription renewal information (`signedRenewalInfo`), as
/// Apple documents `JWSRenewalInfoDecodedPayload`.
///
/// Every field is optional; unknown fields are ignored so a newer payload still decodes.
public struct JWSRenewalInfoDecodedPayload: Hashable, Sendable, Codable {
    /// Why the subscription expired, once it has.
    public var expirationIntent: ExpirationIntent?
    /// The transaction ID of the original purchase.
    public var originalTransactionId: String?
    /// The product that renews at the next renewal date.
    public var autoRenewProductId: String?
    /// The product of the current subscription.
    public var productId: String?
    /// Whether the subscription renews automatically.
    public var autoRenewStatus: AutoRenewStatus?
    /// Whether the App Store is still trying to bill an expired subscription.
    public var isInBillingRetryPeriod: Bool?
    /// Whether the customer answered a price increase.
    public var priceIncreaseStatus: PriceIncreaseStatus?
    /// When the billing grace period ends.
    public var gracePeriodExpiresDate: AppStoreTimestamp?
    /// The kind of offer that applies at the next renewal.
    public var offerType: OfferType?
    /// The identifier of the offer that applies at the next renewal.
    public var offerIdentifier: String?
    /// When the App Store signed this payload.
    public var signedDate: AppStoreTimestamp?
    /// The environment of the subscription.
    public var environment: AppStoreEnvironment?
    /// The start of the most recent run of uninterrupted paid subscription periods.
    public var recentSubscriptionStartDate: AppStoreTimestamp?
    /// When the subscription renews next.
    public var renewalDate: AppStoreTimestamp?
    /// The ISO 4217 currency code of `renewalPrice`.
    public var currency: String?
    /// The next renewal price in milliunits of `currency`.
    public var renewalPrice: Int64?
    /// How the offer that applies at the next renewal is paid.
    public var offerDiscountType: OfferDiscountType?
    /// The win-back offers the customer is eligible for.
    public var eligibleWinBackOfferIds: [String]?
    /// The UUID the app attached to the purchase.
    public var appAccountToken: String?
    /// The app transaction ID of the app download this subscription belongs to.
    public var appTransactionId: String?
    /// The ISO 8601 duration of the offer that applies at the next renewal.
    public var offerPeriod: String?

    /// An empty payload, for building one field by field.
    public init() {}
}

extension JWSRenewalInfoDecodedPayload: SignedPayload {
    /// Apple signs renewal information with a signedDate.
    var effectiveSigningDate: AppStoreTimestamp? { signedDate }
}
