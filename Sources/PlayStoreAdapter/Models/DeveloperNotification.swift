import Foundation
import FulfillmentLedger

/// A Google Play Real-time Developer Notification (the `data` of a Pub/Sub message).
/// Integer types keep their raw values, so a value Google adds later survives.
public struct DeveloperNotification: Hashable, Sendable, Codable {
    /// The format version, such as `1.0`.
    public var version: String?
    /// The app's package name.
    public var packageName: String?
    /// When the event happened, milliseconds since 1970 as a decimal string.
    public var eventTimeMillis: String?
    /// A one-time product purchase changed.
    public var oneTimeProductNotification: OneTimeProductNotification?
    /// A purchase was voided (refund, chargeback, revocation).
    public var voidedPurchaseNotification: VoidedPurchaseNotification?
    /// A test notification sent from the Play Console.
    public var testNotification: TestNotification?

    /// An empty notification, for tests and simulators.
    public init() {}

    /// When the event happened; nil when absent, malformed or out of range.
    public var eventDate: Date? { try? checkedEventDate() }

    /// When the event happened: nil when absent, a `PlayPayloadError` when `eventTimeMillis` is
    /// not a decimal integer or lies outside `Date.ledgerMillisecondsRange`.
    public func checkedEventDate() throws(PlayPayloadError) -> Date? {
        try PlayPayloadLimits.date(eventTimeMillis, field: "eventTimeMillis")
    }

    private enum CodingKeys: String, CodingKey {
        case version, packageName, eventTimeMillis, oneTimeProductNotification, voidedPurchaseNotification
        case testNotification
    }

    /// Decodes a notification; `eventTimeMillis` may be a string or a number.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        version = try container.decodeIfPresent(String.self, forKey: .version)
        packageName = try container.decodeIfPresent(String.self, forKey: .packageName)
        if let text = try? container.decodeIfPresent(String.self, forKey: .eventTimeMillis) {
            eventTimeMillis = text
        } else {
            eventTimeMillis = try container.decodeIfPresent(Int64.self, forKey: .eventTimeMillis).map(String.init)
        }
        oneTimeProductNotification = try container.decodeIfPresent(
            OneTimeProductNotification.self, forKey: .oneTimeProductNotification)
        voidedPurchaseNotification = try container.decodeIfPresent(
            VoidedPurchaseNotification.self, forKey: .voidedPurchaseNotification)
        testNotification = try container.decodeIfPresent(TestNotification.self, forKey: .testNotification)
    }

    /// A change of a one-time product purchase.
    public struct OneTimeProductNotification: Hashable, Sendable, Codable {
        /// The format version.
        public var version: String?
        /// 1 `ONE_TIME_PRODUCT_PURCHASED`, 2 `ONE_TIME_PRODUCT_CANCELED`; other values kept raw.
        public var notificationType: Int?
        /// The purchase token: the ledger key.
        public var purchaseToken: String?
        /// The product ID.
        public var sku: String?

        /// Creates a notification.
        public init(version: String? = "1.0", notificationType: Int?, purchaseToken: String?, sku: String?) {
            self.version = version
            self.notificationType = notificationType
            self.purchaseToken = purchaseToken
            self.sku = sku
        }

        /// The known types.
        public enum Kind: Int, Hashable, Sendable, CaseIterable {
            /// `ONE_TIME_PRODUCT_PURCHASED`: a purchase completed (or a pending one was paid).
            case purchased = 1
            /// `ONE_TIME_PRODUCT_CANCELED`: a pending purchase was canceled.
            case canceled = 2
        }

        /// The known type, nil for an absent or unknown one.
        public var kind: Kind? { notificationType.flatMap(Kind.init(rawValue:)) }
    }

    /// A voided purchase.
    public struct VoidedPurchaseNotification: Hashable, Sendable, Codable {
        /// The purchase token.
        public var purchaseToken: String?
        /// The order ID.
        public var orderId: String?
        /// 1 subscription, 2 one-time product; other values kept raw.
        public var productType: Int?
        /// 1 full refund, 2 quantity-based partial refund; other values kept raw.
        public var refundType: Int?

        /// Creates a notification.
        public init(purchaseToken: String?, orderId: String?, productType: Int?, refundType: Int?) {
            self.purchaseToken = purchaseToken
            self.orderId = orderId
            self.productType = productType
            self.refundType = refundType
        }

        /// `productType` of a subscription.
        public static let subscriptionProductType = 1
        /// `productType` of a one-time product.
        public static let oneTimeProductType = 2
        /// `refundType` of a full refund.
        public static let fullRefundType = 1
        /// `refundType` of a quantity-based partial refund.
        public static let partialRefundType = 2
    }

    /// A Play Console test notification.
    public struct TestNotification: Hashable, Sendable, Codable {
        /// The format version.
        public var version: String?

        /// Creates a test notification.
        public init(version: String? = "1.0") { self.version = version }
    }
}
