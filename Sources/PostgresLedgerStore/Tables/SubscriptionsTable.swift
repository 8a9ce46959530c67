import Foundation
import FulfillmentLedger

/// `subscriptions`: one row per auto-renewable subscription chain (App Store
/// `originalTransactionId`, Play's first purchase token), with the state the store last
/// reported; and `subscription_periods`: one row per paid period granted, keyed by the
/// store's period ID, whose ledger record has the same ID. Added by migration 2; a ledger
/// without subscriptions writes neither.
enum SubscriptionsTable {
    static let createSQL = """
        CREATE TABLE subscriptions (
            store text COLLATE "C" NOT NULL,
            chain_id text COLLATE "C" NOT NULL,
            player_id text COLLATE "C" NOT NULL,
            product_id text COLLATE "C" NOT NULL,
            store_product_id text COLLATE "C" NOT NULL,
            subscription_group text COLLATE "C" NOT NULL,
            state text COLLATE "C" NOT NULL,
            expires_at_ms bigint NOT NULL,
            grace_period_expires_at_ms bigint,
            will_auto_renew bigint CHECK (will_auto_renew IN (0, 1)),
            entitlement_ids text NOT NULL,
            latest_period_id text COLLATE "C" NOT NULL,
            period_count bigint NOT NULL CHECK (period_count >= 0),
            state_signed_at_ms bigint NOT NULL,
            updated_at_ms bigint NOT NULL,
            PRIMARY KEY (store, chain_id)
        );
        CREATE INDEX subscriptions_by_player ON subscriptions (player_id, store, chain_id);
        CREATE TABLE subscription_periods (
            store text COLLATE "C" NOT NULL,
            chain_id text COLLATE "C" NOT NULL,
            period_id text COLLATE "C" NOT NULL,
            starts_at_ms bigint NOT NULL,
            expires_at_ms bigint NOT NULL,
            granted_at_ms bigint NOT NULL,
            PRIMARY KEY (store, period_id),
            FOREIGN KEY (store, period_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        );
        CREATE INDEX subscription_periods_by_chain ON subscription_periods (store, chain_id, starts_at_ms, period_id);
        """

    static let columns = """
        store, chain_id, player_id, product_id, store_product_id, subscription_group, state, expires_at_ms,
        grace_period_expires_at_ms, will_auto_renew, entitlement_ids, latest_period_id, period_count,
        state_signed_at_ms, updated_at_ms
        """
    static let selectSQL = "SELECT \(columns) FROM subscriptions WHERE store = $1 AND chain_id = $2"
    static let selectByPlayerSQL =
        "SELECT \(columns) FROM subscriptions WHERE player_id = $1 ORDER BY store, chain_id LIMIT $2"
    static let upsertSQL = """
        INSERT INTO subscriptions (\(columns)) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)
        ON CONFLICT (store, chain_id) DO UPDATE SET
            player_id = excluded.player_id, product_id = excluded.product_id,
            store_product_id = excluded.store_product_id, subscription_group = excluded.subscription_group,
            state = excluded.state, expires_at_ms = excluded.expires_at_ms,
            grace_period_expires_at_ms = excluded.grace_period_expires_at_ms,
            will_auto_renew = excluded.will_auto_renew, entitlement_ids = excluded.entitlement_ids,
            latest_period_id = excluded.latest_period_id, period_count = excluded.period_count,
            state_signed_at_ms = excluded.state_signed_at_ms, updated_at_ms = excluded.updated_at_ms
        """
    static let selectPeriodsSQL = """
        SELECT store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms FROM subscription_periods
        WHERE store = $1 AND chain_id = $2 ORDER BY starts_at_ms, period_id LIMIT $3
        """
    static let selectPeriodSQL = """
        SELECT store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms FROM subscription_periods
        WHERE store = $1 AND period_id = $2
        """
    static let insertPeriodSQL = """
        INSERT INTO subscription_periods (store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms)
        VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING
        """
}

extension PostgresLedgerSession {
    func subscription(_ chain: TransactionKey) throws(LedgerError) -> SubscriptionRecord? {
        let row = try one(SubscriptionsTable.selectSQL, [.text(chain.store.rawValue), .text(chain.transactionID)], Self.subscriptionRow)
        return try row.map(subscriptionRecord)
    }

    func subscriptions(playerID: String, limit: Int) throws(LedgerError) -> [SubscriptionRecord] {
        let rows = try rows(
            SubscriptionsTable.selectByPlayerSQL, [.text(playerID), .int64(Int64(limit))], limit: limit, Self.subscriptionRow)
        return try rows.map(subscriptionRecord)
    }

    func subscriptionPeriods(_ chain: TransactionKey, limit: Int) throws(LedgerError) -> [SubscriptionPeriodRecord] {
        try rows(
            SubscriptionsTable.selectPeriodsSQL, [.text(chain.store.rawValue), .text(chain.transactionID), .int64(Int64(limit))],
            limit: limit, Self.periodRecord)
    }

    func subscriptionPeriod(_ recordKey: TransactionKey) throws(LedgerError) -> SubscriptionPeriodRecord? {
        try one(SubscriptionsTable.selectPeriodSQL, [.text(recordKey.store.rawValue), .text(recordKey.transactionID)], Self.periodRecord)
    }

    /// A subscription_periods row, in the order the period selects name its columns.
    static func periodRecord(_ row: PostgresRow) throws(PostgresError) -> SubscriptionPeriodRecord {
        SubscriptionPeriodRecord(
            chain: TransactionKey(store: PlatformStore(rawValue: try row.text(0)), transactionID: try row.text(1)),
            periodID: try row.text(2), startsAt: Date(ledgerMilliseconds: try row.int64(3)),
            expiresAt: Date(ledgerMilliseconds: try row.int64(4)), grantedAt: Date(ledgerMilliseconds: try row.int64(5)))
    }

    func upsertSubscription(_ record: SubscriptionRecord) throws(LedgerError) {
        let row = StoredSubscriptionRow(record)
        try run(
            SubscriptionsTable.upsertSQL,
            [
                .text(row.store), .text(row.chainID), .text(row.playerID), .text(row.productID), .text(row.storeProductID),
                .text(row.subscriptionGroup), .text(row.state), .int64(row.expiresAtMilliseconds),
                .int64(row.gracePeriodExpiresAtMilliseconds), .int64(row.willAutoRenew.map { $0 ? 1 : 0 }),
                .text(row.entitlementIDs), .text(row.latestPeriodID), .int64(row.periodCount),
                .int64(row.stateSignedAtMilliseconds), .int64(row.updatedAtMilliseconds),
            ])
    }

    func insertSubscriptionPeriod(_ period: SubscriptionPeriodRecord) throws(LedgerError) -> Bool {
        try run(
            SubscriptionsTable.insertPeriodSQL,
            [
                .text(period.chain.store.rawValue), .text(period.chain.transactionID), .text(period.periodID),
                .int64(period.startsAt.ledgerMilliseconds), .int64(period.expiresAt.ledgerMilliseconds),
                .int64(period.grantedAt.ledgerMilliseconds),
            ]) == 1
    }

    /// A subscriptions row's columns, in `SubscriptionsTable.columns` order.
    static func subscriptionRow(_ row: PostgresRow) throws(PostgresError) -> StoredSubscriptionRow {
        StoredSubscriptionRow(
            store: try row.text(0), chainID: try row.text(1), playerID: try row.text(2), productID: try row.text(3),
            storeProductID: try row.text(4), subscriptionGroup: try row.text(5), state: try row.text(6),
            expiresAtMilliseconds: try row.int64(7), gracePeriodExpiresAtMilliseconds: try row.optionalInt64(8),
            willAutoRenew: try row.optionalInt64(9).map { $0 != 0 }, entitlementIDs: try row.text(10), latestPeriodID: try row.text(11),
            periodCount: try row.int64(12), stateSignedAtMilliseconds: try row.int64(13),
            updatedAtMilliseconds: try row.int64(14))
    }

    func subscriptionRecord(_ row: StoredSubscriptionRow) throws(LedgerError) -> SubscriptionRecord {
        guard let record = row.record else { throw corrupt("subscription \(row.store)/\(row.chainID)") }
        return record
    }
}
