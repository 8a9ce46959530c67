import FulfillmentLedger

/// The type of an App Store Server Notification V2 (`notificationType`).
///
/// Open: a value Apple adds later is kept raw, never lost.
public struct NotificationTypeV2: OpenStringEnumeration {
    /// Apple's name for the value.
    public let rawValue: String

    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The user subscribed or resubscribed.
    public static let subscribed = NotificationTypeV2(rawValue: "SUBSCRIBED")
    /// The user changed the plan that renews next.
    public static let didChangeRenewalPref = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_PREF")
    /// Auto-renew was turned on or off.
    public static let didChangeRenewalStatus = NotificationTypeV2(rawValue: "DID_CHANGE_RENEWAL_STATUS")
    /// The user redeemed an offer.
    public static let offerRedeemed = NotificationTypeV2(rawValue: "OFFER_REDEEMED")
    /// A subscription renewed.
    public static let didRenew = NotificationTypeV2(rawValue: "DID_RENEW")
    /// A subscription expired.
    public static let expired = NotificationTypeV2(rawValue: "EXPIRED")
    /// A renewal failed on billing.
    public static let didFailToRenew = NotificationTypeV2(rawValue: "DID_FAIL_TO_RENEW")
    /// The billing grace period ended without recovery.
    public static let gracePeriodExpired = NotificationTypeV2(rawValue: "GRACE_PERIOD_EXPIRED")
    /// A price increase was announced or answered.
    public static let priceIncrease = NotificationTypeV2(rawValue: "PRICE_INCREASE")
    /// Apple refunded a transaction: take the goods back.
    public static let refund = NotificationTypeV2(rawValue: "REFUND")
    /// Apple declined a refund request.
    public static let refundDeclined = NotificationTypeV2(rawValue: "REFUND_DECLINED")
    /// Apple reversed an earlier refund: grant again.
    public static let refundReversed = NotificationTypeV2(rawValue: "REFUND_REVERSED")
    /// Apple asks for consumption data about a refund request.
    public static let consumptionRequest = NotificationTypeV2(rawValue: "CONSUMPTION_REQUEST")
    /// A subscription's renewal date was extended.
    public static let renewalExtended = NotificationTypeV2(rawValue: "RENEWAL_EXTENDED")
    /// A mass renewal-date extension progressed.
    public static let renewalExtension = NotificationTypeV2(rawValue: "RENEWAL_EXTENSION")
    /// Family Sharing access to a purchase ended.
    public static let revoke = NotificationTypeV2(rawValue: "REVOKE")
    /// A test notification requested through the App Store Server API.
    public static let test = NotificationTypeV2(rawValue: "TEST")
    /// An external purchase token event.
    public static let externalPurchaseToken = NotificationTypeV2(rawValue: "EXTERNAL_PURCHASE_TOKEN")
    /// A one-time purchase (consumable, non-consumable or non-renewing).
    public static let oneTimeCharge = NotificationTypeV2(rawValue: "ONE_TIME_CHARGE")
    /// A parent or guardian withdrew consent for a minor's account to use the app; the payload
    /// carries `appData` with the account's signed app transaction.
    public static let rescindConsent = NotificationTypeV2(rawValue: "RESCIND_CONSENT")
}
