import AppStoreAdapter
import Foundation

/// The payload of a simulated signed transaction (Apple's `JWSTransactionDecodedPayload`),
/// encoded with Apple's field names and with dates as whole milliseconds since 1970.
///
/// Every field is a `var`, so a test can alter a payload and have the simulator sign it.
public struct AppStoreSimulatedTransaction: Sendable, Hashable, Encodable {
    /// `transactionId`.
    public var transactionID: String
    /// `originalTransactionId`: the first transaction of a subscription, else `transactionID`.
    public var originalTransactionID: String
    /// `webOrderLineItemId`, for auto-renewable subscriptions.
    public var webOrderLineItemID: String?
    /// `bundleId`.
    public var bundleID: String
    /// `productId`.
    public var productID: String
    /// `subscriptionGroupIdentifier`, for auto-renewable subscriptions.
    public var subscriptionGroupIdentifier: String?
    /// `purchaseDate`.
    public var purchaseDate: Date
    /// `originalPurchaseDate`.
    public var originalPurchaseDate: Date
    /// `expiresDate`, for subscriptions.
    public var expiresDate: Date?
    /// `quantity`.
    public var quantity: Int
    /// `type`.
    public var type: TransactionType
    /// `appAccountToken`, a UUID string, when the game set one.
    public var appAccountToken: String?
    /// `inAppOwnershipType`: `PURCHASED` or `FAMILY_SHARED`.
    public var inAppOwnershipType: InAppOwnershipType
    /// `signedDate`: when the payload was signed; the verifier checks the chain at this date.
    public var signedDate: Date
    /// `revocationReason`; nil unless revoked.
    public var revocationReason: RevocationReason?
    /// `revocationDate`; nil unless revoked.
    public var revocationDate: Date?
    /// `revocationType`: `REFUND_FULL`, `REFUND_PRORATED` or `FAMILY_REVOKE`; nil unless revoked
    /// (and in payloads from before Apple added it).
    public var revocationType: RevocationType?
    /// `revocationPercentage`, in milliunits, for the whole quantity; nil unless refunded.
    public var revocationPercentage: Int32?
    /// `isUpgraded`, for subscriptions upgraded to a higher level.
    public var isUpgraded: Bool?
    /// `environment`.
    public var environment: AppStoreEnvironment
    /// `storefront`: three-letter country code.
    public var storefront: String
    /// `storefrontId`: Apple's storefront number.
    public var storefrontID: String
    /// `transactionReason`: `PURCHASE` or `RENEWAL`.
    public var transactionReason: TransactionReason
    /// `currency`: ISO 4217 code.
    public var currency: String
    /// `price`: the unit price in milliunits of `currency` (0.99 USD is 990).
    public var price: Int64
    /// `appTransactionId`: the app download this purchase belongs to; absent unless set.
    public var appTransactionID: String?

    /// A payload; optional fields default to absent and the storefront to the United States.
    public init(
        transactionID: String, originalTransactionID: String? = nil, bundleID: String, productID: String,
        purchaseDate: Date, originalPurchaseDate: Date? = nil, quantity: Int = 1, type: TransactionType = .consumable,
        appAccountToken: String? = nil, signedDate: Date? = nil, environment: AppStoreEnvironment, price: Int64 = 990
    ) {
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID ?? transactionID
        self.bundleID = bundleID
        self.productID = productID
        self.purchaseDate = purchaseDate
        self.originalPurchaseDate = originalPurchaseDate ?? purchaseDate
        self.quantity = quantity
        self.type = type
        self.appAccountToken = appAccountToken
        self.inAppOwnershipType = .purchased
        self.signedDate = signedDate ?? purchaseDate
        self.environment = environment
        self.storefront = "USA"
        self.storefrontID = "143441"
        self.transactionReason = .purchase
        self.currency = "USD"
        self.price = price
    }

    /// Apple's field names.
    private enum CodingKeys: String, CodingKey {
        case transactionID = "transactionId"
        case originalTransactionID = "originalTransactionId"
        case webOrderLineItemID = "webOrderLineItemId"
        case bundleID = "bundleId"
        case productID = "productId"
        case subscriptionGroupIdentifier, purchaseDate, originalPurchaseDate, expiresDate, quantity, type
        case appAccountToken, inAppOwnershipType, signedDate, revocationReason, revocationDate, revocationType
        case revocationPercentage, isUpgraded
        case environment, storefront
        case storefrontID = "storefrontId"
        case transactionReason, currency, price
        case appTransactionID = "appTransactionId"
    }

    /// Encodes Apple's JSON, leaving absent fields out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(transactionID, forKey: .transactionID)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encodeIfPresent(webOrderLineItemID, forKey: .webOrderLineItemID)
        try container.encode(bundleID, forKey: .bundleID)
        try container.encode(productID, forKey: .productID)
        try container.encodeIfPresent(subscriptionGroupIdentifier, forKey: .subscriptionGroupIdentifier)
        try container.encode(Self.milliseconds(purchaseDate), forKey: .purchaseDate)
        try container.encode(Self.milliseconds(originalPurchaseDate), forKey: .originalPurchaseDate)
        try container.encodeIfPresent(expiresDate.map(Self.milliseconds), forKey: .expiresDate)
        try container.encode(quantity, forKey: .quantity)
        try container.encode(type, forKey: .type)
        try container.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encode(inAppOwnershipType, forKey: .inAppOwnershipType)
        try container.encode(Self.milliseconds(signedDate), forKey: .signedDate)
        try container.encodeIfPresent(revocationReason, forKey: .revocationReason)
        try container.encodeIfPresent(revocationDate.map(Self.milliseconds), forKey: .revocationDate)
        try container.encodeIfPresent(revocationType, forKey: .revocationType)
        try container.encodeIfPresent(revocationPercentage, forKey: .revocationPercentage)
        try container.encodeIfPresent(isUpgraded, forKey: .isUpgraded)
        try container.encode(environment, forKey: .environment)
        try container.encode(storefront, forKey: .storefront)
        try container.encode(storefrontID, forKey: .storefrontID)
        try container.encode(transactionReason, forKey: .transactionReason)
        try container.encode(currency, forKey: .currency)
        try container.encode(price, forKey: .price)
        try container.encodeIfPresent(appTransactionID, forKey: .appTransactionID)
    }

    /// `date` as whole milliseconds since 1970, truncated as Apple's timestamps are.
    public static func milliseconds(_ date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 * 1000).rounded(.towardZero))
    }
}
