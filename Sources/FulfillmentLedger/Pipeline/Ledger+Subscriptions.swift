import Foundation

extension Ledger {
    /// A player's subscriptions at `date` (the ledger clock's now when nil): each chain with its
    /// state, expiry, entitlement and periods granted, by store and chain ID. A server asks at
    /// any time and needs no timer: a period read after it ends reads as expired.
    public func subscriptions(_ playerID: String, at date: Date? = nil) async throws(LedgerError) -> [SubscriptionReading] {
        try checkIdentifier(playerID, "playerID")
        let readAt = date ?? clock.now()
        return try await store.read { reader throws(LedgerError) in
            try reader.subscriptions(playerID: playerID, limit: SubscriptionChains.playerChainCountMax).map {
                (chain) throws(LedgerError) in
                SubscriptionReading(
                    subscription: chain, readAt: readAt,
                    periods: try reader.subscriptionPeriods(chain.chain, limit: SubscriptionChains.chainPeriodCountMax))
            }
        }
    }

    /// A subscription chain, if any of its periods was granted.
    public func subscription(_ chain: TransactionKey) async throws(LedgerError) -> SubscriptionRecord? {
        try checkStore(chain.store)
        try checkTransactionID(chain.transactionID, "chain")
        return try await store.read { reader throws(LedgerError) in try reader.subscription(chain) }
    }
}
