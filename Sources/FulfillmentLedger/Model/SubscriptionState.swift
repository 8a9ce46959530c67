/// Where an auto-renewable subscription stands, as the store last reported it.
///
/// Open: a state read from a newer ledger is kept raw and never entitles.
public struct SubscriptionState: OpenStringEnumeration {
    /// The state's stable name.
    public let rawValue: String
    /// Wraps a name.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Paid through `expiresAt`; entitled until then, also when auto-renew is turned off
    /// (cancelled but not yet expired).
    public static let active = SubscriptionState(rawValue: "active")
    /// A renewal failed, and the store keeps the player entitled while it retries, until
    /// `gracePeriodExpiresAt` (App Store billing grace period, Play grace period).
    public static let gracePeriod = SubscriptionState(rawValue: "gracePeriod")
    /// A renewal failed and the store is still retrying, without entitling (App Store billing
    /// retry, Play account hold).
    public static let billingRetry = SubscriptionState(rawValue: "billingRetry")
    /// Paused by the player (Play); not entitled until it resumes.
    public static let paused = SubscriptionState(rawValue: "paused")
    /// Ended: not renewed, or the store gave up retrying.
    public static let expired = SubscriptionState(rawValue: "expired")
    /// Refunded or revoked as a whole; entitles nothing.
    public static let revoked = SubscriptionState(rawValue: "revoked")

    /// The states this version knows, in the order above.
    public static let known: [SubscriptionState] = [.active, .gracePeriod, .billingRetry, .paused, .expired, .revoked]
}
