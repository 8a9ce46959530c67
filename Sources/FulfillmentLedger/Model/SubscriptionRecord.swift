import Foundation

/// One subscription chain as the ledger keeps it: the player, the product, the state the store
/// last reported and how long it entitles.
///
/// A chain is every period of one subscription: App Store `originalTransactionId`, Play's
/// first purchase token. Its periods are records of their own, keyed by the period's ID (see
/// `SubscriptionPeriodFacts`), each granting the product's period rewards once.
public struct SubscriptionRecord: Hashable, Sendable, Codable {
    /// The store and the chain's ID.
    public var chain: TransactionKey
    /// The player the subscription's periods were granted to.
    public var playerID: String
    /// The catalog product of the latest period granted.
    public var productID: String
    /// The store's product ID of the latest period granted.
    public var storeProductID: String
    /// The catalog's subscription group of that product.
    public var subscriptionGroup: String
    /// The state the store last reported.
    public var state: SubscriptionState
    /// When the latest paid period ends.
    public var expiresAt: Date
    /// Until when a failed renewal keeps the player entitled, in `gracePeriod`.
    public var gracePeriodExpiresAt: Date?
    /// Whether the store will renew it, when the store said (App Store `autoRenewStatus`).
    public var willAutoRenew: Bool?
    /// The entitlements the latest period pays for, as its record granted them.
    public var entitlementIDs: [String]
    /// The ID of the latest period granted.
    public var latestPeriodID: String
    /// Paid periods granted on this chain.
    public var periodCount: Int
    /// The store's date of the facts the state was taken from (a notification's `signedDate`,
    /// a transaction's purchase date); facts signed earlier never overwrite it.
    public var stateSignedAt: Date
    /// When the ledger last changed the record.
    public var updatedAt: Date

    /// Creates a record.
    public init(
        chain: TransactionKey, playerID: String, productID: String, storeProductID: String, subscriptionGroup: String,
        state: SubscriptionState, expiresAt: Date, gracePeriodExpiresAt: Date? = nil, willAutoRenew: Bool? = nil,
        entitlementIDs: [String], latestPeriodID: String, periodCount: Int, stateSignedAt: Date, updatedAt: Date
    ) {
        self.chain = chain
        self.playerID = playerID
        self.productID = productID
        self.storeProductID = storeProductID
        self.subscriptionGroup = subscriptionGroup
        self.state = state
        self.expiresAt = expiresAt.truncatedToLedgerMilliseconds
        self.gracePeriodExpiresAt = gracePeriodExpiresAt?.truncatedToLedgerMilliseconds
        self.willAutoRenew = willAutoRenew
        self.entitlementIDs = entitlementIDs
        self.latestPeriodID = latestPeriodID
        self.periodCount = periodCount
        self.stateSignedAt = stateSignedAt.truncatedToLedgerMilliseconds
        self.updatedAt = updatedAt.truncatedToLedgerMilliseconds
    }

    /// When the entitlement ends if nothing changes: the grace period's end in `gracePeriod`,
    /// else `expiresAt`.
    public var entitledUntil: Date {
        state == .gracePeriod ? max(expiresAt, gracePeriodExpiresAt ?? expiresAt) : expiresAt
    }

    /// The state at `date`, from the ledger clock: an active subscription read after its
    /// expiry is expired, and a grace period read after its end is billing retry, so a server
    /// needs no timer to stop a lapsed VIP.
    public func state(at date: Date) -> SubscriptionState {
        switch state {
        case .active: date < expiresAt ? .active : .expired
        case .gracePeriod: date < entitledUntil ? .gracePeriod : .billingRetry
        default: state
        }
    }

    /// Whether the subscription entitles the player at `date`: active (cancelled or not) before
    /// `expiresAt`, or in its grace period before it ends.
    public func isEntitled(at date: Date) -> Bool {
        let current = state(at: date)
        return current == .active || current == .gracePeriod
    }
}

/// One paid period of a subscription chain, granted once.
public struct SubscriptionPeriodRecord: Hashable, Sendable, Codable {
    /// The store and the chain's ID.
    public var chain: TransactionKey
    /// The store's ID of the period, the ID of its ledger record.
    public var periodID: String
    /// When the period started (the transaction's purchase date).
    public var startsAt: Date
    /// When the period ends.
    public var expiresAt: Date
    /// When the ledger granted it.
    public var grantedAt: Date

    /// Creates a period.
    public init(chain: TransactionKey, periodID: String, startsAt: Date, expiresAt: Date, grantedAt: Date) {
        self.chain = chain
        self.periodID = periodID
        self.startsAt = startsAt.truncatedToLedgerMilliseconds
        self.expiresAt = expiresAt.truncatedToLedgerMilliseconds
        self.grantedAt = grantedAt.truncatedToLedgerMilliseconds
    }

    /// The key of the period's ledger record.
    public var recordKey: TransactionKey { TransactionKey(store: chain.store, transactionID: periodID) }
}
