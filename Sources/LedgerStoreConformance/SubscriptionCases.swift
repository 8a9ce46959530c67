import Foundation
import FulfillmentLedger

/// Subscription chains and their paid periods.
enum SubscriptionCases {
    static let entries = [
        ConformanceEntry(
            "subscriptionRoundTrip",
            "a subscription chain reads back as written, every field, is replaced by an upsert, and is listed per player",
            subscriptionRoundTrip),
        ConformanceEntry(
            "subscriptionPeriods",
            "a period is inserted once per store and ID, found by its record's key, and listed per chain by start",
            subscriptionPeriods),
    ]

    static func chain(
        _ chainID: String, player: String = "p1", state: SubscriptionState = .active, store: PlatformStore = .test
    ) -> SubscriptionRecord {
        SubscriptionRecord(
            chain: TransactionKey(store: store, transactionID: chainID), playerID: player, productID: "vip_monthly",
            storeProductID: "test.vip_monthly", subscriptionGroup: "vip", state: state, expiresAt: ContractRows.date(30_000),
            entitlementIDs: ["vip", "needs \"escaping\""], latestPeriodID: "w1", periodCount: 1,
            stateSignedAt: ContractRows.date(1), updatedAt: ContractRows.date(2))
    }

    static func subscriptionRoundTrip(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        var written = chain("c1", state: SubscriptionState(rawValue: "aStateFromANewerVersion"))
        written.gracePeriodExpiresAt = ContractRows.date(40_000)
        written.willAutoRenew = false
        let full = written
        let bare = chain("c0", player: "p1")
        let other = chain("c2", player: "p2", store: .appStore)
        try await store.write { writer throws(LedgerError) in
            for record in [full, bare, other] { try writer.upsertSubscription(record) }
        }
        let (read, listed, missing) = try await store.read { reader throws(LedgerError) in
            (
                try reader.subscription(full.chain), try reader.subscriptions(playerID: "p1", limit: 10),
                try reader.subscription(TransactionKey(store: .appStore, transactionID: "c1"))
            )
        }
        context.checkEqual(read, full, "every field of c1, the raw state and the escaped entitlement ID included")
        context.checkEqual(listed.map(\.chain.transactionID), ["c0", "c1"], "p1's chains by store and chain ID")
        context.checkEqual(listed.first?.gracePeriodExpiresAt, nil, "c0's grace period end (none)")
        context.checkEqual(listed.first?.willAutoRenew, nil, "c0's auto-renew status (unknown)")
        context.check(missing == nil, "c1 on another store is another chain")

        var changed = full
        changed.state = .gracePeriod
        changed.willAutoRenew = true
        changed.periodCount = 2
        changed.latestPeriodID = "w2"
        changed.entitlementIDs = []
        let renewed = changed
        try await store.write { writer throws(LedgerError) in try writer.upsertSubscription(renewed) }
        let (replaced, limited) = try await store.read { reader throws(LedgerError) in
            (try reader.subscription(full.chain), try reader.subscriptions(playerID: "p1", limit: 1))
        }
        context.checkEqual(replaced, renewed, "c1 after its upsert")
        context.checkEqual(limited.map(\.chain.transactionID), ["c0"], "p1's chains, at most 1")
    }

    /// A period of chain `c1` on the test store, starting at `offset`.
    @Sendable static func period(_ id: String, startingAt offset: Int64) -> SubscriptionPeriodRecord {
        SubscriptionPeriodRecord(
            chain: ContractRows.key("c1"), periodID: id, startsAt: ContractRows.date(offset),
            expiresAt: ContractRows.date(offset + 30_000), grantedAt: ContractRows.date(offset + 5))
    }

    static func subscriptionPeriods(_ context: ConformanceContext) async throws(LedgerError) {
        let store = context.store
        let chainKey = ContractRows.key("c1")
        let inserted = try await store.write { writer throws(LedgerError) in
            for id in ["w3", "w1", "w2"] { try writer.insertTransaction(ContractRows.record(id)) }
            return [
                try writer.insertSubscriptionPeriod(SubscriptionCases.period("w3", startingAt: 60_000)),
                try writer.insertSubscriptionPeriod(SubscriptionCases.period("w1", startingAt: 0)),
                try writer.insertSubscriptionPeriod(SubscriptionCases.period("w2", startingAt: 30_000)),
                try writer.insertSubscriptionPeriod(SubscriptionCases.period("w1", startingAt: 99)),
            ]
        }
        context.checkEqual(inserted, [true, true, true, false], "w3, w1, w2, then w1 again")
        let (all, first, found, none) = try await store.read { reader throws(LedgerError) in
            (
                try reader.subscriptionPeriods(chainKey, limit: 10), try reader.subscriptionPeriods(chainKey, limit: 1),
                try reader.subscriptionPeriod(ContractRows.key("w2")),
                try reader.subscriptionPeriod(TransactionKey(store: .appStore, transactionID: "w2"))
            )
        }
        context.checkEqual(all.map(\.periodID), ["w1", "w2", "w3"], "the chain's periods by start")
        context.checkEqual(all.first, SubscriptionCases.period("w1", startingAt: 0), "w1 as first written, every field")
        context.checkEqual(first.map(\.periodID), ["w1"], "the chain's periods, at most 1")
        context.checkEqual(found?.recordKey, ContractRows.key("w2"), "w2 found by its record's key")
        context.check(none == nil, "w2 on another store is another period")
    }
}
