import Foundation

extension Ledger {
    /// Applies what a store reported about a subscription chain, in one durable write, and logs
    /// it. Facts signed before the chain's last change are `stale` and change nothing, so a late,
    /// older notification never overwrites a newer state. Throws only for infrastructure
    /// failures and `invalidArgument` for dates outside the ledger's range.
    public func updateSubscription(_ update: SubscriptionUpdate) async throws(LedgerError) -> SubscriptionUpdateOutcome {
        try checkStore(update.chain.store)
        try checkTransactionID(update.chain.transactionID, "chain")
        for date in [update.signedAt, update.expiresAt, update.gracePeriodExpiresAt].compactMap({ $0 })
        where !date.isInLedgerRange {
            throw LedgerError.invalidArgument("a date of the subscription update is outside the ledger's range")
        }
        let now = clock.now()
        return try await commit(.durable) { writer throws(LedgerError) in
            try SubscriptionChains.apply(update, now: now, writer: writer)
        }
    }
}

extension SubscriptionChains {
    /// The body of `Ledger.updateSubscription`.
    static func apply(
        _ update: SubscriptionUpdate, now: Date, writer: LedgerWriter
    ) throws(LedgerError) -> SubscriptionUpdateOutcome {
        guard let chain = try writer.subscription(update.chain) else { return .unknownChain }
        guard update.signedAt.truncatedToLedgerMilliseconds >= chain.stateSignedAt else { return .stale(chain) }
        var changed = chain
        if let state = update.state {
            // A revoked chain comes back only through a reversed refund or a new paid period.
            if chain.state != .revoked { changed.state = state }
            changed.gracePeriodExpiresAt = state == .gracePeriod ? update.gracePeriodExpiresAt ?? chain.gracePeriodExpiresAt : nil
        }
        if let expiresAt = update.expiresAt { changed.expiresAt = max(chain.expiresAt, expiresAt.truncatedToLedgerMilliseconds) }
        if let willAutoRenew = update.willAutoRenew { changed.willAutoRenew = willAutoRenew }
        changed.stateSignedAt = update.signedAt.truncatedToLedgerMilliseconds
        changed.updatedAt = now.truncatedToLedgerMilliseconds
        guard ChainFacts(changed) != ChainFacts(chain) else {
            // Nothing to log, but the facts are the newest: an older one arriving later is stale.
            if changed.stateSignedAt > chain.stateSignedAt { try writer.upsertSubscription(changed) }
            return .unchanged(changed)
        }
        try writeChange(from: chain, to: changed, reason: update.reason, now: now, writer: writer)
        return .applied(changed)
    }

    /// Writes `changed` over `chain`, bumps the player's entitlement version when what the chain
    /// entitles changed, and logs the change as `subscriptionChanged` with `reason`.
    static func writeChange(
        from chain: SubscriptionRecord, to changed: SubscriptionRecord, reason: String, now: Date,
        writer: LedgerWriter
    ) throws(LedgerError) {
        try writer.upsertSubscription(changed)
        if chain.entitledUntil != changed.entitledUntil || chain.isEntitled(at: now) != changed.isEntitled(at: now) {
            _ = try writer.bumpEntitlementVersion(playerID: chain.playerID)
        }
        try writer.appendEvent(
            LedgerEvent(
                kind: .subscriptionChanged, playerID: chain.playerID,
                transaction: TransactionKey(store: chain.chain.store, transactionID: chain.latestPeriodID), at: now,
                detail: "\(chain.chain) \(reason): \(describe(chain)) -> \(describe(changed))"))
    }

    /// What an update can change in a chain: whether it changed anything is whether these differ.
    private struct ChainFacts: Equatable {
        let state: SubscriptionState
        let expiresAt: Date
        let gracePeriodExpiresAt: Date?
        let willAutoRenew: Bool?

        init(_ chain: SubscriptionRecord) {
            state = chain.state
            expiresAt = chain.expiresAt
            gracePeriodExpiresAt = chain.gracePeriodExpiresAt
            willAutoRenew = chain.willAutoRenew
        }
    }

    /// A chain's state for the event log: `gracePeriod until 2026-12-20T00:00:00.000Z, auto-renew off`.
    static func describe(_ chain: SubscriptionRecord) -> String {
        let renew = chain.willAutoRenew.map { $0 ? ", auto-renew on" : ", auto-renew off" } ?? ""
        return "\(chain.state) until \(chain.entitledUntil.ledgerISO8601)\(renew)"
    }
}
