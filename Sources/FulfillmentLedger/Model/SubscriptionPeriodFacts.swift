import Foundation

/// The verified facts of one paid period of an auto-renewable subscription.
///
/// A period is keyed by the store's ID of that purchase event, which stays the same on every
/// delivery of it: App Store `webOrderLineItemId` (not `transactionId`, which is new on every
/// restore and every new device), Google Play's order ID of the renewal. The chain is the
/// subscription the period belongs to: App Store `originalTransactionId`, Play's purchase token.
/// A Play token that replaces another (an upgrade, a downgrade, a re-signup) names the old token
/// in `replacedChainID`, and the ledger ends the old chain when the new one starts.
public struct SubscriptionPeriodFacts: Hashable, Sendable, Codable {
    /// The store's ID of this paid period: the ledger key of its record.
    public var periodID: String
    /// The store's ID of the subscription the period belongs to, the same for every period.
    public var chainID: String
    /// When the period ends, unless the store extends it; its entitlements lapse then.
    public var expiresAt: Date
    /// The store's subscription group, when its proof names it (App Store `subscriptionGroupIdentifier`).
    public var subscriptionGroupID: String?
    /// The chain this one replaces (Play's `linkedPurchaseToken`): it stops entitling when this
    /// chain's first period is granted, so one purchase never entitles twice.
    public var replacedChainID: String?
    /// When the store last said this period is paid and running, if later than the period's
    /// start: Play's `subscriptionsv2` answer read now, in a state that entitles. Nil for a signed
    /// transaction (App Store), whose facts hold as of its purchase date. A period newer than the
    /// chain's latest sets the chain active only if the store said so no earlier than the chain's
    /// last state (`SubscriptionRecord.stateSignedAt`): a late renewal never undoes a newer expiry.
    public var stateObservedAt: Date?

    /// Creates period facts.
    public init(
        periodID: String, chainID: String, expiresAt: Date, subscriptionGroupID: String? = nil, replacedChainID: String? = nil,
        stateObservedAt: Date? = nil
    ) {
        self.periodID = periodID
        self.chainID = chainID
        self.expiresAt = expiresAt
        self.subscriptionGroupID = subscriptionGroupID
        self.replacedChainID = replacedChainID
        self.stateObservedAt = stateObservedAt
    }
}
