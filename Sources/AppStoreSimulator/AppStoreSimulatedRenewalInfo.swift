import AppStoreAdapter
import Foundation

/// The payload of simulated subscription renewal information (Apple's
/// `JWSRenewalInfoDecodedPayload`), with Apple's field names and millisecond dates.
///
/// Every field is a `var`, so a test can alter a payload and have the simulator sign it.
public struct AppStoreSimulatedRenewalInfo: Sendable, Hashable, Encodable {
    /// `originalTransactionId`: the subscription's first transaction.
    public var originalTransactionID: String
    /// `productId`: the product of the current period.
    public var productID: String
    /// `autoRenewProductId`: the product that renews next.
    public var autoRenewProductID: String
    /// `autoRenewStatus`.
    public var autoRenewStatus: AutoRenewStatus
    /// `isInBillingRetryPeriod`.
    public var isInBillingRetryPeriod: Bool
    /// `signedDate`.
    public var signedDate: Date
    /// `environment`.
    public var environment: AppStoreEnvironment
    /// `recentSubscriptionStartDate`: the start of the current run of uninterrupted periods.
    public var recentSubscriptionStartDate: Date
    /// `renewalDate`: when the subscription renews next.
    public var renewalDate: Date?
    /// `currency`: ISO 4217 code of `renewalPrice`.
    public var currency: String
    /// `renewalPrice`: in milliunits of `currency`.
    public var renewalPrice: Int64
    /// `appAccountToken`, when the purchase carried one.
    public var appAccountToken: String?
    /// `gracePeriodExpiresDate`: while a failed renewal keeps the player entitled.
    public var gracePeriodExpiresDate: Date?

    /// Renewal information for the subscription `transaction` belongs to, renewing into the
    /// same product at the same price.
    public init(transaction: AppStoreSimulatedTransaction, signedDate: Date) {
        originalTransactionID = transaction.originalTransactionID
        productID = transaction.productID
        autoRenewProductID = transaction.productID
        autoRenewStatus = .on
        isInBillingRetryPeriod = false
        self.signedDate = signedDate
        environment = transaction.environment
        recentSubscriptionStartDate = transaction.originalPurchaseDate
        renewalDate = transaction.expiresDate
        currency = transaction.currency
        renewalPrice = transaction.price
        appAccountToken = transaction.appAccountToken
    }

    /// Apple's field names.
    private enum CodingKeys: String, CodingKey {
        case originalTransactionID = "originalTransactionId"
        case productID = "productId"
        case autoRenewProductID = "autoRenewProductId"
        case autoRenewStatus, isInBillingRetryPeriod, signedDate, environment, recentSubscriptionStartDate
        case renewalDate, currency, renewalPrice, appAccountToken, gracePeriodExpiresDate
    }

    /// Encodes Apple's JSON, leaving absent fields out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(originalTransactionID, forKey: .originalTransactionID)
        try container.encode(productID, forKey: .productID)
        try container.encode(autoRenewProductID, forKey: .autoRenewProductID)
        try container.encode(autoRenewStatus, forKey: .autoRenewStatus)
        try container.encode(isInBillingRetryPeriod, forKey: .isInBillingRetryPeriod)
        try container.encode(AppStoreSimulatedTransaction.milliseconds(signedDate), forKey: .signedDate)
        try container.encode(environment, forKey: .environment)
        try container.encode(
            AppStoreSimulatedTransaction.milliseconds(recentSubscriptionStartDate), forKey: .recentSubscriptionStartDate)
        try container.encodeIfPresent(renewalDate.map(AppStoreSimulatedTransaction.milliseconds), forKey: .renewalDate)
        try container.encode(currency, forKey: .currency)
        try container.encode(renewalPrice, forKey: .renewalPrice)
        try container.encodeIfPresent(appAccountToken, forKey: .appAccountToken)
        try container.encodeIfPresent(
            gracePeriodExpiresDate.map(AppStoreSimulatedTransaction.milliseconds), forKey: .gracePeriodExpiresDate)
    }
}
