import FulfillmentLedger

/// Subscription chains and their periods, ordered as the SQLite store orders them.
extension InMemoryLedgerSession {
    func subscription(_ chain: TransactionKey) throws(LedgerError) -> SubscriptionRecord? { state.subscriptions[chain] }

    func subscriptions(playerID: String, limit: Int) throws(LedgerError) -> [SubscriptionRecord] {
        Array(state.subscriptions.values.filter { $0.playerID == playerID }.sorted { $0.chain < $1.chain }.prefix(limit))
    }

    func subscriptionPeriods(_ chain: TransactionKey, limit: Int) throws(LedgerError) -> [SubscriptionPeriodRecord] {
        let periods = state.subscriptionPeriods[chain, default: [:]].values
        return Array(periods.sorted { ($0.startsAt, $0.periodID) < ($1.startsAt, $1.periodID) }.prefix(limit))
    }

    func subscriptionPeriod(_ recordKey: TransactionKey) throws(LedgerError) -> SubscriptionPeriodRecord? {
        state.subscriptionPeriods.values.lazy.compactMap { $0[recordKey.transactionID] }
            .first { $0.chain.store == recordKey.store }
    }

    func upsertSubscription(_ record: SubscriptionRecord) throws(LedgerError) { state.subscriptions[record.chain] = record }

    func insertSubscriptionPeriod(_ period: SubscriptionPeriodRecord) throws(LedgerError) -> Bool {
        guard try subscriptionPeriod(period.recordKey) == nil else { return false }
        state.subscriptionPeriods[period.chain, default: [:]][period.periodID] = period
        return true
    }
}
