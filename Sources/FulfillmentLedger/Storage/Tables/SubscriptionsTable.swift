import Foundation

/// `subscriptions`: one row per auto-renewable subscription chain (App Store
/// `originalTransactionId`, Play's first purchase token), with the state the store last
/// reported; and `subscription_periods`: one row per paid period granted, keyed by the
/// store's period ID, whose ledger record has the same ID (checked at commit). A ledger
/// without subscriptions writes neither. `will_auto_renew` is an integer 0 or 1 on every engine.
enum SubscriptionsTable {
    /// The tables as they stand, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "subscriptions",
        columns: [
            SQLColumn("store", .key), SQLColumn("chain_id", .key), SQLColumn("player_id", .key), SQLColumn("product_id", .key),
            SQLColumn("store_product_id", .key), SQLColumn("subscription_group", .key), SQLColumn("state", .key),
            SQLColumn("expires_at_ms", .integer), SQLColumn("grace_period_expires_at_ms", .integer, isNullable: true),
            SQLColumn("will_auto_renew", .integer, isNullable: true, check: "will_auto_renew IN (0, 1)"),
            SQLColumn("entitlement_ids", .text), SQLColumn("latest_period_id", .key),
            SQLColumn("period_count", .integer, check: "period_count >= 0"), SQLColumn("state_signed_at_ms", .integer),
            SQLColumn("updated_at_ms", .integer),
        ],
        primaryKey: ["store", "chain_id"],
        indexes: [SQLIndex("subscriptions_by_player", on: ["player_id", "store", "chain_id"])])
    static let periodsSchema = SQLTable(
        "subscription_periods",
        columns: [
            SQLColumn("store", .key), SQLColumn("chain_id", .key), SQLColumn("period_id", .key),
            SQLColumn("starts_at_ms", .integer), SQLColumn("expires_at_ms", .integer), SQLColumn("granted_at_ms", .integer),
        ],
        primaryKey: ["store", "period_id"],
        foreignKeys: [SQLForeignKey(["store", "period_id"], references: "ledger_transactions", ["store", "transaction_id"])],
        indexes: [SQLIndex("subscription_periods_by_chain", on: ["store", "chain_id", "starts_at_ms", "period_id"])])

    static let columns = """
        store, chain_id, player_id, product_id, store_product_id, subscription_group, state, expires_at_ms,
        grace_period_expires_at_ms, will_auto_renew, entitlement_ids, latest_period_id, period_count,
        state_signed_at_ms, updated_at_ms
        """
    static let selectSQL = "SELECT \(columns) FROM subscriptions WHERE store = ? AND chain_id = ?"
    static let selectByPlayerSQL =
        "SELECT \(columns) FROM subscriptions WHERE player_id = ? ORDER BY store, chain_id LIMIT ?"
    static let upsertSQL = """
        INSERT INTO subscriptions (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (store, chain_id) DO UPDATE SET
            player_id = excluded.player_id, product_id = excluded.product_id,
            store_product_id = excluded.store_product_id, subscription_group = excluded.subscription_group,
            state = excluded.state, expires_at_ms = excluded.expires_at_ms,
            grace_period_expires_at_ms = excluded.grace_period_expires_at_ms,
            will_auto_renew = excluded.will_auto_renew, entitlement_ids = excluded.entitlement_ids,
            latest_period_id = excluded.latest_period_id, period_count = excluded.period_count,
            state_signed_at_ms = excluded.state_signed_at_ms, updated_at_ms = excluded.updated_at_ms
        """
    static let periodColumns = "store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms"
    static let selectPeriodsSQL = """
        SELECT \(periodColumns) FROM subscription_periods
        WHERE store = ? AND chain_id = ? ORDER BY starts_at_ms, period_id LIMIT ?
        """
    static let selectPeriodSQL = "SELECT \(periodColumns) FROM subscription_periods WHERE store = ? AND period_id = ?"
    static let insertPeriodSQL = """
        INSERT INTO subscription_periods (\(periodColumns)) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
        """

    /// A subscription_periods row, in `periodColumns` order.
    static func periodRecord(_ row: SQLRow) throws(LedgerError) -> SubscriptionPeriodRecord {
        SubscriptionPeriodRecord(
            chain: TransactionKey(store: PlatformStore(rawValue: try row.text(0)), transactionID: try row.text(1)),
            periodID: try row.text(2), startsAt: Date(ledgerMilliseconds: try row.int64(3)),
            expiresAt: Date(ledgerMilliseconds: try row.int64(4)), grantedAt: Date(ledgerMilliseconds: try row.int64(5)))
    }

    /// A subscriptions row, in `columns` order.
    static func subscriptionRow(_ row: SQLRow) throws(LedgerError) -> StoredSubscriptionRow {
        StoredSubscriptionRow(
            store: try row.text(0), chainID: try row.text(1), playerID: try row.text(2), productID: try row.text(3),
            storeProductID: try row.text(4), subscriptionGroup: try row.text(5), state: try row.text(6),
            expiresAtMilliseconds: try row.int64(7), gracePeriodExpiresAtMilliseconds: try row.optionalInt64(8),
            willAutoRenew: try row.optionalInt64(9).map { $0 != 0 }, entitlementIDs: try row.text(10),
            latestPeriodID: try row.text(11), periodCount: try row.int64(12), stateSignedAtMilliseconds: try row.int64(13),
            updatedAtMilliseconds: try row.int64(14))
    }
}

extension LedgerReader {
    /// A subscription chain, if any of its periods was granted.
    public func subscription(_ chain: TransactionKey) throws(LedgerError) -> SubscriptionRecord? {
        try one(SubscriptionsTable.selectSQL, [.text(chain.store.rawValue), .text(chain.transactionID)]) {
            (row) throws(LedgerError) in try subscriptionRecord(try SubscriptionsTable.subscriptionRow(row))
        }
    }

    /// A player's subscription chains, by store and chain ID, at most `limit`.
    public func subscriptions(playerID: String, limit: Int) throws(LedgerError) -> [SubscriptionRecord] {
        try rows(SubscriptionsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit) {
            (row) throws(LedgerError) in try subscriptionRecord(try SubscriptionsTable.subscriptionRow(row))
        }
    }

    /// A chain's granted periods, earliest start first, at most `limit`.
    public func subscriptionPeriods(_ chain: TransactionKey, limit: Int) throws(LedgerError) -> [SubscriptionPeriodRecord] {
        try rows(
            SubscriptionsTable.selectPeriodsSQL, [.text(chain.store.rawValue), .text(chain.transactionID), .count(limit)],
            limit: limit, SubscriptionsTable.periodRecord)
    }

    /// The period whose ledger record has `recordKey`, if that record is a subscription period.
    public func subscriptionPeriod(_ recordKey: TransactionKey) throws(LedgerError) -> SubscriptionPeriodRecord? {
        try one(
            SubscriptionsTable.selectPeriodSQL, [.text(recordKey.store.rawValue), .text(recordKey.transactionID)],
            SubscriptionsTable.periodRecord)
    }

    private func subscriptionRecord(_ row: StoredSubscriptionRow) throws(LedgerError) -> SubscriptionRecord {
        guard let record = row.record else { throw corrupt("subscription \(row.store)/\(row.chainID)") }
        return record
    }
}

extension LedgerWriter {
    /// Adds or replaces a subscription chain's record.
    public func upsertSubscription(_ record: SubscriptionRecord) throws(LedgerError) {
        let row = StoredSubscriptionRow(record)
        try run(
            SubscriptionsTable.upsertSQL,
            [
                .text(row.store), .text(row.chainID), .text(row.playerID), .text(row.productID), .text(row.storeProductID),
                .text(row.subscriptionGroup), .text(row.state), .integer(row.expiresAtMilliseconds),
                .integer(row.gracePeriodExpiresAtMilliseconds), .integer(row.willAutoRenew.map { $0 ? 1 : 0 }),
                .text(row.entitlementIDs), .text(row.latestPeriodID), .integer(row.periodCount),
                .integer(row.stateSignedAtMilliseconds), .integer(row.updatedAtMilliseconds),
            ])
    }

    /// Adds a granted period of a chain. Returns false, changing nothing, if the store already
    /// has a period with its ID.
    @discardableResult
    public func insertSubscriptionPeriod(_ period: SubscriptionPeriodRecord) throws(LedgerError) -> Bool {
        try run(
            SubscriptionsTable.insertPeriodSQL,
            [
                .text(period.chain.store.rawValue), .text(period.chain.transactionID), .text(period.periodID),
                .milliseconds(period.startsAt), .milliseconds(period.expiresAt), .milliseconds(period.grantedAt),
            ]) == 1
    }
}
