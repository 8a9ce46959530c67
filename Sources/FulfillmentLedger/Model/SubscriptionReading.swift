import Foundation

/// A subscription chain read at a time: its record, the state and entitlement at that time,
/// and the paid periods granted.
public struct SubscriptionReading: Hashable, Sendable, Codable {
    /// The chain as the ledger keeps it.
    public var subscription: SubscriptionRecord
    /// When it was read (the ledger clock's now unless asked for another time).
    public var readAt: Date
    /// The state at `readAt` (`SubscriptionRecord.state(at:)`).
    public var state: SubscriptionState
    /// Whether it entitles the player at `readAt`.
    public var isEntitled: Bool
    /// The periods granted, earliest first.
    public var periods: [SubscriptionPeriodRecord]

    /// Creates a status of `subscription` at `readAt`.
    public init(subscription: SubscriptionRecord, readAt: Date, periods: [SubscriptionPeriodRecord]) {
        self.subscription = subscription
        self.readAt = readAt.truncatedToLedgerMilliseconds
        self.state = subscription.state(at: readAt)
        self.isEntitled = subscription.isEntitled(at: readAt)
        self.periods = periods
    }
}
