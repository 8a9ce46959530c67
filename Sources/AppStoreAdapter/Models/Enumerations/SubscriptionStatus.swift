/// The state of a subscription in a notification (`data.status`).
///
/// Open: a number Apple adds later is kept raw, never lost.
public struct SubscriptionStatus: OpenIntegerEnumeration {
    /// Apple's number for the value.
    public let rawValue: Int

    /// Wraps a number.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Active.
    public static let active = SubscriptionStatus(rawValue: 1)
    /// Expired.
    public static let expired = SubscriptionStatus(rawValue: 2)
    /// In the billing retry period.
    public static let billingRetry = SubscriptionStatus(rawValue: 3)
    /// In the billing grace period.
    public static let billingGracePeriod = SubscriptionStatus(rawValue: 4)
    /// Revoked.
    public static let revoked = SubscriptionStatus(rawValue: 5)
}
