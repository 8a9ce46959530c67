import Foundation

/// Where a paid subscription period joins its chain, inside the grant's store transaction.
///
/// The period's record (keyed by the store's period ID) holds what the period granted; the
/// chain's record holds the state and how long the subscription entitles. A period granted late
/// (an older period delivered after a newer one) counts, but never moves the chain back.
enum SubscriptionChains {
    /// Most chains read for one player.
    static let playerChainCountMax = 1_000
    /// Most periods read for one chain.
    static let chainPeriodCountMax = 10_000

    /// The chain a verified period belongs to.
    static func chainKey(_ verified: VerifiedTransaction, _ facts: SubscriptionPeriodFacts) -> TransactionKey {
        TransactionKey(store: verified.store, transactionID: facts.chainID)
    }

    /// Why the period must not be granted to `playerID`, or nil: a chain already belongs to the
    /// player its first period was granted to, so another player's delivery of a later period
    /// is refused (one payment never entitles two players).
    static func refusal(
        _ verified: VerifiedTransaction, playerID: String, reader: LedgerReader
    ) throws(LedgerError) -> Rejection? {
        guard let facts = verified.subscriptionPeriod else { return nil }
        let replaced = facts.replacedChainID.map { TransactionKey(store: verified.store, transactionID: $0) }
        for key in [chainKey(verified, facts)] + (replaced.map { [$0] } ?? []) {
            guard let chain = try reader.subscription(key), chain.playerID != playerID else { continue }
            return Rejection(.ownedByAnotherPlayer, "subscription \(chain.chain) belongs to another player")
        }
        return nil
    }

    /// Adds the period to its chain, creating the chain with its first period, and returns the
    /// chain as written. A period newer than the chain's latest (`supersedes`) becomes the latest:
    /// the chain takes its product, its entitlements and its end (an upgrade within the group
    /// replaces the old product's at once, so one chain never entitles twice). It sets the chain
    /// active unless the store reported a state after the period's facts (an expiry signed after
    /// the renewal): the store's most recent word holds, whatever order the two arrive in.
    @discardableResult
    static func recordPeriod(
        _ facts: SubscriptionPeriodFacts, of record: TransactionRecord, product: Product, verified: VerifiedTransaction,
        now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> SubscriptionRecord {
        let key = chainKey(verified, facts)
        let period = SubscriptionPeriodRecord(
            chain: key, periodID: record.key.transactionID, startsAt: verified.purchaseDate, expiresAt: facts.expiresAt,
            grantedAt: now)
        guard try writer.insertSubscriptionPeriod(period) else {
            // The record's insert-if-absent ran first in this transaction, so the period is new.
            throw LedgerError.integrityCheckFailed(
                location: "subscription_periods", detail: "period \(record.key) of \(key) exists without its record")
        }
        let entitlementIDs = record.grants.filter { $0.kind == .entitlement }.map(\.id)
        let group = product.subscriptionGroup ?? product.id
        guard var chain = try writer.subscription(key) else {
            let chain = SubscriptionRecord(
                chain: key, playerID: record.playerID, productID: product.id, storeProductID: verified.storeProductID,
                subscriptionGroup: group, state: .active, expiresAt: facts.expiresAt, entitlementIDs: entitlementIDs,
                latestPeriodID: period.periodID, periodCount: 1, stateSignedAt: verified.purchaseDate, updatedAt: now)
            try writer.upsertSubscription(chain)
            _ = try writer.bumpEntitlementVersion(playerID: record.playerID)
            if let replaced = facts.replacedChainID {
                try retire(TransactionKey(store: key.store, transactionID: replaced), by: key, now: now, writer: writer)
            }
            return chain
        }
        chain.periodCount += 1
        chain.updatedAt = now.truncatedToLedgerMilliseconds
        let latest = try writer.subscriptionPeriod(TransactionKey(store: key.store, transactionID: chain.latestPeriodID))
        if supersedes(period, latest: latest, chainExpiresAt: chain.expiresAt) {
            chain.productID = product.id
            chain.storeProductID = verified.storeProductID
            chain.subscriptionGroup = group
            chain.expiresAt = period.expiresAt
            chain.entitlementIDs = entitlementIDs
            chain.latestPeriodID = period.periodID
            let observedAt = max(period.startsAt, facts.stateObservedAt?.truncatedToLedgerMilliseconds ?? period.startsAt)
            if observedAt >= chain.stateSignedAt {
                // A new paid period: the subscription is active again, whatever retry it was in.
                chain.state = .active
                chain.gracePeriodExpiresAt = nil
                chain.stateSignedAt = max(chain.stateSignedAt, period.startsAt)
            }
            _ = try writer.bumpEntitlementVersion(playerID: record.playerID)
        }
        try writer.upsertSubscription(chain)
        return chain
    }

    /// Whether `period` replaces the chain's latest period `latest`: it started later (a renewal,
    /// a resubscription, or an upgrade, which Apple starts at once, ending before a longer period
    /// it replaces would have), or it started with it and ends later (Play names every period of
    /// a token by the subscription's start). A late, older period counts but never moves the
    /// chain back.
    static func supersedes(_ period: SubscriptionPeriodRecord, latest: SubscriptionPeriodRecord?, chainExpiresAt: Date) -> Bool {
        guard let latest else { return period.expiresAt > chainExpiresAt }
        if period.startsAt != latest.startsAt { return period.startsAt > latest.startsAt }
        return period.expiresAt > chainExpiresAt
    }

    /// Ends the chain `replaced` that a new chain replaces (a Play upgrade, downgrade or
    /// re-signup names it as `linkedPurchaseToken`): it expires now, so the player is entitled by
    /// the new chain only. A chain the ledger never granted, or one already ended, is left alone.
    static func retire(_ replaced: TransactionKey, by successor: TransactionKey, now: Date, writer: LedgerWriter)
        throws(LedgerError)
    {
        guard let chain = try writer.subscription(replaced), chain.state != .expired, chain.state != .revoked else { return }
        var changed = chain
        changed.state = .expired
        changed.expiresAt = min(chain.expiresAt, now.truncatedToLedgerMilliseconds)
        changed.gracePeriodExpiresAt = nil
        changed.willAutoRenew = false
        changed.updatedAt = now.truncatedToLedgerMilliseconds
        try writeChange(from: chain, to: changed, reason: "replaced by \(successor)", now: now, writer: writer)
    }

    /// A refund or revoke of a whole period: when it is the chain's latest, the subscription is
    /// revoked and its entitlements end now (the effect lists them). A refund of an earlier
    /// period takes back only that period's rewards, which the caller already did.
    static func periodTakenBack(
        _ transaction: TransactionRecord, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> [GrantLine] {
        guard transaction.productKind == .autoRenewable, let period = try writer.subscriptionPeriod(transaction.key),
            var chain = try writer.subscription(period.chain), chain.latestPeriodID == period.periodID,
            chain.state != .revoked
        else { return [] }
        let wasEntitled = chain.isEntitled(at: now)
        chain.state = .revoked
        chain.updatedAt = now.truncatedToLedgerMilliseconds
        try writer.upsertSubscription(chain)
        _ = try writer.bumpEntitlementVersion(playerID: chain.playerID)
        return wasEntitled ? chain.entitlementIDs.map { GrantLine(kind: .entitlement, id: $0, quantity: -1) } : []
    }

    /// A reversed refund of a chain's latest period: the subscription is active again, and
    /// entitles until the period ends (the effect lists its entitlements while it does).
    static func periodGivenBack(
        _ transaction: TransactionRecord, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> [GrantLine] {
        guard transaction.productKind == .autoRenewable, let period = try writer.subscriptionPeriod(transaction.key),
            var chain = try writer.subscription(period.chain), chain.latestPeriodID == period.periodID,
            chain.state == .revoked
        else { return [] }
        chain.state = .active
        chain.updatedAt = now.truncatedToLedgerMilliseconds
        try writer.upsertSubscription(chain)
        _ = try writer.bumpEntitlementVersion(playerID: chain.playerID)
        return chain.isEntitled(at: now) ? chain.entitlementIDs.map { GrantLine(kind: .entitlement, id: $0, quantity: 1) } : []
    }
}
