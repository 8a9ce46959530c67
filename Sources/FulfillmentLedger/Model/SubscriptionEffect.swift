import Foundation

/// What a store's notification about an auto-renewable subscription did: the paid period it
/// carried, fulfilled for the chain's player, and the chain's new state. Both store adapters
/// report it (`AppStoreNotificationOutcome.subscription`, `PlayNotificationOutcome.subscription`).
public struct SubscriptionEffect: Hashable, Sendable {
    /// The fulfillment of the notification's paid period (App Store SUBSCRIBED, DID_RENEW,
    /// OFFER_REDEEMED, an immediate upgrade; Play's latest paid order read back from Google);
    /// nil when the notification carries none.
    public var period: FulfillmentOutcome?
    /// What the notification's state did to the chain; nil when it carries none.
    public var update: SubscriptionUpdateOutcome?
    /// One line for the notification's record: what happened, or why nothing did.
    public var note: String

    /// Creates an effect.
    public init(period: FulfillmentOutcome?, update: SubscriptionUpdateOutcome?, note: String) {
        self.period = period
        self.update = update
        self.note = note
    }

    /// Adds `period`, `note`, `subscription` (the chain as the update left it) and `update` (its
    /// outcome's name) to a JSON object; the two store outcomes encode an effect this one way.
    package func encodeFields(into container: inout KeyedEncodingContainer<LedgerJSONKey>) throws {
        try container.encodeIfPresent(period, forKey: "period")
        try container.encode(note, forKey: "note")
        switch update {
        case .applied(let chain), .stale(let chain), .unchanged(let chain):
            try container.encode(chain, forKey: "subscription")
        case .unknownChain, nil: break
        }
        try container.encodeIfPresent(update.map(\.name), forKey: "update")
    }
}
