import Foundation

/// What a store reported about a subscription chain, apart from a paid period: a failed
/// renewal, a grace period, an expiry, a change of the auto-renew status, an extension.
///
/// Built by a store adapter only from facts it authenticated (a verified App Store
/// notification, a Play state read from `subscriptionsv2.get`). Each field left nil keeps the
/// chain's value.
public struct SubscriptionUpdate: Hashable, Sendable {
    /// The store and the chain's ID (App Store `originalTransactionId`).
    public var chain: TransactionKey
    /// The state the store reports, if the event sets one.
    public var state: SubscriptionState?
    /// A later end of the latest period (App Store RENEWAL_EXTENDED); never moves it earlier.
    public var expiresAt: Date?
    /// The end of a grace period the event starts.
    public var gracePeriodExpiresAt: Date?
    /// Whether the store will renew the subscription.
    public var willAutoRenew: Bool?
    /// The store's date of these facts (App Store `signedDate`): facts signed before the
    /// chain's last change never overwrite it.
    public var signedAt: Date
    /// What the store said, for the event log (`DID_FAIL_TO_RENEW GRACE_PERIOD`).
    public var reason: String

    /// Creates an update.
    public init(
        chain: TransactionKey, state: SubscriptionState? = nil, expiresAt: Date? = nil, gracePeriodExpiresAt: Date? = nil,
        willAutoRenew: Bool? = nil, signedAt: Date, reason: String
    ) {
        self.chain = chain
        self.state = state
        self.expiresAt = expiresAt
        self.gracePeriodExpiresAt = gracePeriodExpiresAt
        self.willAutoRenew = willAutoRenew
        self.signedAt = signedAt
        self.reason = reason
    }
}

/// What applying a `SubscriptionUpdate` did.
public enum SubscriptionUpdateOutcome: Hashable, Sendable {
    /// The chain changed; here it is as written.
    case applied(SubscriptionRecord)
    /// The facts were signed before the chain's last change, which stands; nothing changed.
    case stale(SubscriptionRecord)
    /// The update changes nothing the chain holds.
    case unchanged(SubscriptionRecord)
    /// No period of the chain was granted yet, so there is nothing to update; the first period
    /// starts the chain when the game delivers it.
    case unknownChain
}

extension SubscriptionUpdateOutcome {
    /// The case's stable name: `applied`, `stale`, `unchanged` or `unknownChain`.
    public var name: String {
        switch self {
        case .applied: "applied"
        case .stale: "stale"
        case .unchanged: "unchanged"
        case .unknownChain: "unknownChain"
        }
    }
}
