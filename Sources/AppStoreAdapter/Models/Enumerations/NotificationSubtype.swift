import FulfillmentLedger

/// The detail of a notification type (`subtype`).
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct NotificationSubtype: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A first subscription purchase.
    public static let initialBuy = NotificationSubtype(rawValue: "INITIAL_BUY")
    /// A return to a subscription group.
    public static let resubscribe = NotificationSubtype(rawValue: "RESUBSCRIBE")
    /// A downgrade that takes effect at the next renewal.
    public static let downgrade = NotificationSubtype(rawValue: "DOWNGRADE")
    /// An upgrade that takes effect at once.
    public static let upgrade = NotificationSubtype(rawValue: "UPGRADE")
    /// Auto-renew was turned on.
    public static let autoRenewEnabled = NotificationSubtype(rawValue: "AUTO_RENEW_ENABLED")
    /// Auto-renew was turned off.
    public static let autoRenewDisabled = NotificationSubtype(rawValue: "AUTO_RENEW_DISABLED")
    /// Expired after the user turned off auto-renew.
    public static let voluntary = NotificationSubtype(rawValue: "VOLUNTARY")
    /// Expired after the billing retry period ended.
    public static let billingRetry = NotificationSubtype(rawValue: "BILLING_RETRY")
    /// Expired because the user did not consent to a price increase.
    public static let priceIncrease = NotificationSubtype(rawValue: "PRICE_INCREASE")
    /// The renewal failed but service continues in the grace period.
    public static let gracePeriod = NotificationSubtype(rawValue: "GRACE_PERIOD")
    /// A price increase awaits the user's answer.
    public static let pending = NotificationSubtype(rawValue: "PENDING")
    /// The user accepted a price increase.
    public static let accepted = NotificationSubtype(rawValue: "ACCEPTED")
    /// A renewal that had failed succeeded.
    public static let billingRecovery = NotificationSubtype(rawValue: "BILLING_RECOVERY")
    /// Expired because the product was not for sale at renewal.
    public static let productNotForSale = NotificationSubtype(rawValue: "PRODUCT_NOT_FOR_SALE")
    /// A mass renewal-date extension finished.
    public static let summary = NotificationSubtype(rawValue: "SUMMARY")
    /// A renewal-date extension for one subscription failed.
    public static let failure = NotificationSubtype(rawValue: "FAILURE")
    /// An external purchase token was not reported.
    public static let unreported = NotificationSubtype(rawValue: "UNREPORTED")
    /// An external purchase token is still active.
    public static let activeTokenReminder = NotificationSubtype(rawValue: "ACTIVE_TOKEN_REMINDER")
    /// An external purchase token was created.
    public static let created = NotificationSubtype(rawValue: "CREATED")
}
