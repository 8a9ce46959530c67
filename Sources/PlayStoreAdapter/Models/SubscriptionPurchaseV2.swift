import Foundation
import FulfillmentLedger

/// A subscription purchase as the Play Developer API's `purchases.subscriptionsv2.get`
/// returns it, with the fields the ledger reads. Enums are kept as Google's strings, so a value
/// Google adds later survives (and grants nothing until the adapter knows it).
public struct SubscriptionPurchaseV2: Hashable, Sendable, Codable {
    /// `androidpublisher#subscriptionPurchaseV2`.
    public var kind: String?
    /// The buyer's billing region (ISO 3166-1 alpha-2).
    public var regionCode: String?
    /// One line item per subscribed product (one, except in an add-on purchase).
    public var lineItems: [LineItem]?
    /// When the subscription was granted (RFC 3339); absent while the first payment is pending.
    public var startTime: String?
    /// `SUBSCRIPTION_STATE_ACTIVE`, `…_IN_GRACE_PERIOD`, `…_ON_HOLD`, `…_PAUSED`, `…_CANCELED`,
    /// `…_EXPIRED`, `…_PENDING`, `…_PENDING_PURCHASE_CANCELED`; see `State`.
    public var subscriptionState: String?
    /// The purchase token of the subscription this one replaces (an upgrade, a downgrade, or a
    /// re-signup before the old one lapsed): the ledger ends that token's chain.
    public var linkedPurchaseToken: String?
    /// `ACKNOWLEDGEMENT_STATE_PENDING` or `ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED`.
    public var acknowledgementState: String?
    /// Present (an empty object) for a license tester's purchase.
    public var testPurchase: TestPurchase?
    /// The game's account IDs set at purchase.
    public var externalAccountIdentifiers: ExternalAccountIdentifiers?
    /// Present for a resubscription made outside the app (in the Play Store): it names the
    /// subscription to this product that expired before it, whose account the new one carries
    /// no trace of. See `OutOfAppPurchaseContext`.
    public var outOfAppPurchaseContext: OutOfAppPurchaseContext?

    /// An empty purchase, for tests and simulators.
    public init() {}

    /// The subscription states the adapter knows.
    public enum State: String, Hashable, Sendable, CaseIterable {
        /// Paid and renewing (or a prepaid plan within its period).
        case active = "SUBSCRIPTION_STATE_ACTIVE"
        /// A renewal failed; the player keeps access until the grace period ends.
        case inGracePeriod = "SUBSCRIPTION_STATE_IN_GRACE_PERIOD"
        /// A renewal failed and the grace period (if any) ended; no access while Google retries.
        case onHold = "SUBSCRIPTION_STATE_ON_HOLD"
        /// The player paused it; no access until it resumes.
        case paused = "SUBSCRIPTION_STATE_PAUSED"
        /// Auto-renew is off; access lasts until `expiryTime`.
        case canceled = "SUBSCRIPTION_STATE_CANCELED"
        /// Ended.
        case expired = "SUBSCRIPTION_STATE_EXPIRED"
        /// Bought, awaiting the first payment: nothing is granted.
        case pending = "SUBSCRIPTION_STATE_PENDING"
        /// A pending purchase was cancelled before it was paid: nothing is granted.
        case pendingPurchaseCanceled = "SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED"
    }

    /// The known state, nil for an absent or unknown one.
    public var state: State? { subscriptionState.flatMap(State.init(rawValue:)) }

    /// `acknowledgementState` of a subscription not yet acknowledged.
    public static let acknowledgementPending = "ACKNOWLEDGEMENT_STATE_PENDING"
    /// `acknowledgementState` of an acknowledged subscription.
    public static let acknowledgementAcknowledged = "ACKNOWLEDGEMENT_STATE_ACKNOWLEDGED"

    /// The line item of `storeProductID`, if the purchase has one.
    public func lineItem(for storeProductID: String) -> LineItem? {
        lineItems?.first { $0.productId == storeProductID }
    }

    /// When the subscription was granted: nil when absent, an error when malformed or out of range.
    public func checkedStartDate() throws(PlayPayloadError) -> Date? {
        try PlayPayloadLimits.timestamp(startTime, field: "startTime")
    }

    /// One subscribed product of the purchase.
    public struct LineItem: Hashable, Sendable, Codable {
        /// The subscription's product ID.
        public var productId: String?
        /// When the current period ends, or ended (RFC 3339).
        public var expiryTime: String?
        /// The order ID of the latest paid period (`GPA.…` with `..N` for the N-th renewal):
        /// the ledger key of that period.
        public var latestSuccessfulOrderId: String?
        /// The auto-renewing plan, absent for a prepaid one.
        public var autoRenewingPlan: AutoRenewingPlan?

        /// Creates a line item.
        public init(
            productId: String?, expiryTime: String?, latestSuccessfulOrderId: String?,
            autoRenewingPlan: AutoRenewingPlan? = nil
        ) {
            self.productId = productId
            self.expiryTime = expiryTime
            self.latestSuccessfulOrderId = latestSuccessfulOrderId
            self.autoRenewingPlan = autoRenewingPlan
        }

        /// When the current period ends: nil when absent, an error when malformed or out of range.
        public func checkedExpiryDate() throws(PlayPayloadError) -> Date? {
            try PlayPayloadLimits.timestamp(expiryTime, field: "lineItems.expiryTime")
        }
    }

    /// An auto-renewing plan.
    public struct AutoRenewingPlan: Hashable, Sendable, Codable {
        /// Whether Google will renew the subscription.
        public var autoRenewEnabled: Bool?

        /// Creates a plan.
        public init(autoRenewEnabled: Bool?) { self.autoRenewEnabled = autoRenewEnabled }
    }

    /// A license tester's purchase marker (Google sends an empty object).
    public struct TestPurchase: Hashable, Sendable, Codable {
        /// Creates the marker.
        public init() {}
    }

    /// The game's account IDs set at purchase.
    public struct ExternalAccountIdentifiers: Hashable, Sendable, Codable {
        /// The obfuscated account ID: the account binding.
        public var obfuscatedExternalAccountId: String?
        /// The obfuscated profile ID.
        public var obfuscatedExternalProfileId: String?
        /// The account ID in a third-party service, present only when account linking happened
        /// in the purchase flow. The ledger does not read it.
        public var externalAccountId: String?

        /// Creates the identifiers.
        public init(
            obfuscatedExternalAccountId: String?, obfuscatedExternalProfileId: String? = nil, externalAccountId: String? = nil
        ) {
            self.obfuscatedExternalAccountId = obfuscatedExternalAccountId
            self.obfuscatedExternalProfileId = obfuscatedExternalProfileId
            self.externalAccountId = externalAccountId
        }
    }

    /// What Google says of a resubscription made in the Play Store rather than in the app: the
    /// last expired subscription to the same product, so the new one can be attributed to the
    /// player who held it. Google: the expired token "must only be used to help identify the
    /// user if the link between the purchaseToken and user is stored in your database", and it
    /// cannot be read from the API more than 60 days after it expired. Google removes the context
    /// once the subscription is acknowledged, so the ledger reads it before it finishes.
    public struct OutOfAppPurchaseContext: Hashable, Sendable, Codable {
        /// The account IDs of the last expired subscription to this product.
        public var expiredExternalAccountIdentifiers: ExternalAccountIdentifiers?
        /// The purchase token of the last expired subscription to this product.
        public var expiredPurchaseToken: String?

        /// Creates the context.
        public init(expiredExternalAccountIdentifiers: ExternalAccountIdentifiers?, expiredPurchaseToken: String?) {
            self.expiredExternalAccountIdentifiers = expiredExternalAccountIdentifiers
            self.expiredPurchaseToken = expiredPurchaseToken
        }
    }

    /// Whether the purchase is a resubscription made outside the app that carries no account
    /// of its own: the only kind Google lets the acknowledgement attribute (`externalAccountIds`).
    public var isUnattributedOutOfAppPurchase: Bool {
        outOfAppPurchaseContext != nil && (externalAccountIdentifiers?.obfuscatedExternalAccountId ?? "").isEmpty
    }

    /// The account the purchase is bound to: its own `obfuscatedExternalAccountId`, else, for an
    /// out-of-app resubscription, the one of the expired subscription it follows.
    public var boundAccountID: String? {
        if let own = externalAccountIdentifiers?.obfuscatedExternalAccountId, !own.isEmpty { return own }
        guard let expired = outOfAppPurchaseContext?.expiredExternalAccountIdentifiers?.obfuscatedExternalAccountId,
            !expired.isEmpty
        else { return nil }
        return expired
    }
}
