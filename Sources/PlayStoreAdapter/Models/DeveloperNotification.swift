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
    /// A subscription changed: re-read it with `purchases.subscriptionsv2.get`.
    public var subscriptionNotification: SubscriptionNotification?
    /// A purchase was voided (refund, chargeback, revocation).
    public var voidedPurchaseNotification: VoidedPurchaseNotification?
    /// A test notification sent from the Play Console.
    public var testNotification: TestNotification?
    /// A chargeback Google asks the game to review (collaborative chargebacks): answer with
    /// `orders.reviewrefund` within 24 hours.
    public var pendingRefundReviewNotification: PendingRefundReviewNotification?

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
        case version, packageName, eventTimeMillis, oneTimeProductNotification, subscriptionNotification
        case voidedPurchaseNotification, testNotification, pendingRefundReviewNotification
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
        subscriptionNotification = try container.decodeIfPresent(
            SubscriptionNotification.self, forKey: .subscriptionNotification)
        voidedPurchaseNotification = try container.decodeIfPresent(
            VoidedPurchaseNotification.self, forKey: .voidedPurchaseNotification)
        testNotification = try container.decodeIfPresent(TestNotification.self, forKey: .testNotification)
        pendingRefundReviewNotification = try container.decodeIfPresent(
            PendingRefundReviewNotification.self, forKey: .pendingRefundReviewNotification)
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

    /// A change of a subscription. It says only that something changed: the ledger reads the
    /// subscription's state from `purchases.subscriptionsv2.get`, never from the push.
    public struct SubscriptionNotification: Hashable, Sendable, Codable {
        /// The format version.
        public var version: String?
        /// The event; see `Kind`. Other values are kept raw.
        public var notificationType: Int?
        /// The subscription's purchase token.
        public var purchaseToken: String?
        /// The subscription's product ID (Google stopped sending it for newer integrations).
        public var subscriptionId: String?

        /// Creates a notification.
        public init(version: String? = "1.0", notificationType: Int?, purchaseToken: String?, subscriptionId: String? = nil) {
            self.version = version
            self.notificationType = notificationType
            self.purchaseToken = purchaseToken
            self.subscriptionId = subscriptionId
        }

        /// The known types, with Google's numbers.
        public enum Kind: Int, Hashable, Sendable, CaseIterable {
            /// `SUBSCRIPTION_RECOVERED`: recovered from account hold, or resumed from a pause.
            case recovered = 1
            /// `SUBSCRIPTION_RENEWED`: an active subscription renewed (a new paid period).
            case renewed = 2
            /// `SUBSCRIPTION_CANCELED`: auto-renew turned off; access lasts until expiry.
            case canceled = 3
            /// `SUBSCRIPTION_PURCHASED`: a new subscription (acknowledge it within three days).
            case purchased = 4
            /// `SUBSCRIPTION_ON_HOLD`: account hold, no access.
            case onHold = 5
            /// `SUBSCRIPTION_IN_GRACE_PERIOD`: a renewal failed; access lasts through the grace period.
            case inGracePeriod = 6
            /// `SUBSCRIPTION_RESTARTED`: the player restored a canceled subscription before it lapsed.
            case restarted = 7
            /// `SUBSCRIPTION_PRICE_CHANGE_CONFIRMED` (deprecated by Google).
            case priceChangeConfirmed = 8
            /// `SUBSCRIPTION_DEFERRED`: the next renewal moved later.
            case deferred = 9
            /// `SUBSCRIPTION_PAUSED`: a pause began, no access.
            case paused = 10
            /// `SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED`.
            case pauseScheduleChanged = 11
            /// `SUBSCRIPTION_REVOKED`: revoked before it expired; access ends now.
            case revoked = 12
            /// `SUBSCRIPTION_EXPIRED`.
            case expired = 13
            /// `SUBSCRIPTION_PRICE_CHANGE_UPDATED`.
            case priceChangeUpdated = 19
            /// `SUBSCRIPTION_PENDING_PURCHASE_CANCELED`: a pending first payment was cancelled.
            case pendingPurchaseCanceled = 20
        }

        /// The known type, nil for an absent or unknown one.
        public var kind: Kind? { notificationType.flatMap(Kind.init(rawValue:)) }

        /// Google's name of the type (`SUBSCRIPTION_RENEWED`), or `SUBSCRIPTION_<N>` for an unknown one.
        public var typeName: String {
            guard let kind else { return "SUBSCRIPTION_\(notificationType ?? -1)" }
            switch kind {
            case .recovered: return "SUBSCRIPTION_RECOVERED"
            case .renewed: return "SUBSCRIPTION_RENEWED"
            case .canceled: return "SUBSCRIPTION_CANCELED"
            case .purchased: return "SUBSCRIPTION_PURCHASED"
            case .onHold: return "SUBSCRIPTION_ON_HOLD"
            case .inGracePeriod: return "SUBSCRIPTION_IN_GRACE_PERIOD"
            case .restarted: return "SUBSCRIPTION_RESTARTED"
            case .priceChangeConfirmed: return "SUBSCRIPTION_PRICE_CHANGE_CONFIRMED"
            case .deferred: return "SUBSCRIPTION_DEFERRED"
            case .paused: return "SUBSCRIPTION_PAUSED"
            case .pauseScheduleChanged: return "SUBSCRIPTION_PAUSE_SCHEDULE_CHANGED"
            case .revoked: return "SUBSCRIPTION_REVOKED"
            case .expired: return "SUBSCRIPTION_EXPIRED"
            case .priceChangeUpdated: return "SUBSCRIPTION_PRICE_CHANGE_UPDATED"
            case .pendingPurchaseCanceled: return "SUBSCRIPTION_PENDING_PURCHASE_CANCELED"
            }
        }
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

    /// A chargeback the buyer's bank raised that Google asks the game to review. Google's
    /// reference names the notification and its `pendingRefundToken` (which the answer must
    /// carry) and `orderId` (the answer's path); the other fields are read when present and never
    /// needed.
    public struct PendingRefundReviewNotification: Hashable, Sendable, Codable {
        /// The format version.
        public var version: String?
        /// The token the answer carries.
        public var pendingRefundToken: String?
        /// The order under review: a one-time purchase's order, or a subscription period's.
        public var orderId: String?
        /// The refund reason Google gives (a number, kept raw; chargebacks only, for now).
        public var refundReason: Int?
        /// The buyer's obfuscated account ID, when the purchase carried one.
        public var obfuscatedAccountId: String?
        /// The buyer's obfuscated profile ID, when the purchase carried one.
        public var obfuscatedProfileId: String?

        /// Creates a notification.
        public init(
            version: String? = "1.0", pendingRefundToken: String?, orderId: String?, refundReason: Int? = nil,
            obfuscatedAccountId: String? = nil, obfuscatedProfileId: String? = nil
        ) {
            self.version = version
            self.pendingRefundToken = pendingRefundToken
            self.orderId = orderId
            self.refundReason = refundReason
            self.obfuscatedAccountId = obfuscatedAccountId
            self.obfuscatedProfileId = obfuscatedProfileId
        }

        private enum CodingKeys: String, CodingKey {
            case version, pendingRefundToken, orderId, refundReason, obfuscatedAccountId, obfuscatedProfileId
        }

        /// Decodes a notification. The token and order ID must be strings when present; the
        /// informative fields that are not of the expected type are left out, not refused.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            version = try? container.decodeIfPresent(String.self, forKey: .version)
            pendingRefundToken = try container.decodeIfPresent(String.self, forKey: .pendingRefundToken)
            orderId = try container.decodeIfPresent(String.self, forKey: .orderId)
            refundReason = try? container.decodeIfPresent(Int.self, forKey: .refundReason)
            obfuscatedAccountId = try? container.decodeIfPresent(String.self, forKey: .obfuscatedAccountId)
            obfuscatedProfileId = try? container.decodeIfPresent(String.self, forKey: .obfuscatedProfileId)
        }
    }

    /// A Play Console test notification.
    public struct TestNotification: Hashable, Sendable, Codable {
        /// The format version.
        public var version: String?

        /// Creates a test notification.
        public init(version: String? = "1.0") { self.version = version }
    }
}
