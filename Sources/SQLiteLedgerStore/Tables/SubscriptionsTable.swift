import Foundation
import FulfillmentLedger

/// `subscriptions`: one row per auto-renewable subscription chain (App Store
/// `originalTransactionId`, Play's first purchase token), with the state the store last
/// reported; and `subscription_periods`: one row per paid period granted, keyed by the
/// store's period ID, whose ledger record has the same ID. Added by migration 7; a ledger
/// without subscriptions writes neither.
enum SubscriptionsTable {
    static let createSQL = """
        CREATE TABLE subscriptions (
            store TEXT NOT NULL,
            chain_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            store_product_id TEXT NOT NULL,
            subscription_group TEXT NOT NULL,
            state TEXT NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            grace_period_expires_at_ms INTEGER,
            will_auto_renew INTEGER CHECK (will_auto_renew IN (0, 1)),
            entitlement_ids TEXT NOT NULL,
            latest_period_id TEXT NOT NULL,
            period_count INTEGER NOT NULL CHECK (period_count >= 0),
            state_signed_at_ms INTEGER NOT NULL,
            updated_at_ms INTEGER NOT NULL,
            PRIMARY KEY (store, chain_id)
        ) WITHOUT ROWID;
        CREATE INDEX subscriptions_by_player ON subscriptions (player_id, store, chain_id);
        CREATE TABLE subscription_periods (
            store TEXT NOT NULL,
            chain_id TEXT NOT NULL,
            period_id TEXT NOT NULL,
            starts_at_ms INTEGER NOT NULL,
            expires_at_ms INTEGER NOT NULL,
            granted_at_ms INTEGER NOT NULL,
            PRIMARY KEY (store, period_id),
            FOREIGN KEY (store, period_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        ) WITHOUT ROWID;
        CREATE INDEX subscription_periods_by_chain ON subscription_periods (store, chain_id, starts_at_ms, period_id);
        """

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
    static let selectPeriodsSQL = """
        SELECT store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms FROM subscription_periods
        WHERE store = ? AND chain_id = ? ORDER BY starts_at_ms, period_id LIMIT ?
        """
    static let selectPeriodSQL = """
        SELECT store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms FROM subscription_periods
        WHERE store = ? AND period_id = ?
        """
    static let insertPeriodSQL = """
        INSERT INTO subscription_periods (store, chain_id, period_id, starts_at_ms, expires_at_ms, granted_at_ms)
        VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
        """
}

extension SQLiteLedgerSession {
    func subscription(_ chain: TransactionKey) throws(LedgerError) -> SubscriptionRecord? {
        let row = try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.selectSQL).queryOne(
                [.text(chain.store.rawValue), .text(chain.transactionID)], Self.subscriptionRow)
        }
        return try row.map(subscriptionRecord)
    }

    func subscriptions(playerID: String, limit: Int) throws(LedgerError) -> [SubscriptionRecord] {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.selectByPlayerSQL).query(
                [.text(playerID), .integer(Int64(limit))], rowCountMax: limit, Self.subscriptionRow)
        }
        return try rows.map(subscriptionRecord)
    }

    func subscriptionPeriods(_ chain: TransactionKey, limit: Int) throws(LedgerError) -> [SubscriptionPeriodRecord] {
        try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.selectPeriodsSQL).query(
                [.text(chain.store.rawValue), .text(chain.transactionID), .integer(Int64(limit))], rowCountMax: limit,
                Self.periodRecord)
        }
    }

    func subscriptionPeriod(_ recordKey: TransactionKey) throws(LedgerError) -> SubscriptionPeriodRecord? {
        try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.selectPeriodSQL).queryOne(
                [.text(recordKey.store.rawValue), .text(recordKey.transactionID)], Self.periodRecord)
        }
    }

    /// A subscription_periods row, in the order the period selects name its columns.
    static func periodRecord(_ row: SQLiteRow) -> SubscriptionPeriodRecord {
        SubscriptionPeriodRecord(
            chain: TransactionKey(store: PlatformStore(rawValue: row.text(0)), transactionID: row.text(1)),
            periodID: row.text(2), startsAt: Date(ledgerMilliseconds: row.int64(3)),
            expiresAt: Date(ledgerMilliseconds: row.int64(4)), grantedAt: Date(ledgerMilliseconds: row.int64(5)))
    }

    func upsertSubscription(_ record: SubscriptionRecord) throws(LedgerError) {
        let row = StoredSubscriptionRow(record)
        try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.upsertSQL).run([
                .text(row.store), .text(row.chainID), .text(row.playerID), .text(row.productID), .text(row.storeProductID),
                .text(row.subscriptionGroup), .text(row.state), .integer(row.expiresAtMilliseconds),
                .integer(row.gracePeriodExpiresAtMilliseconds), .integer(row.willAutoRenew.map { $0 ? 1 : 0 }),
                .text(row.entitlementIDs), .text(row.latestPeriodID), .integer(row.periodCount),
                .integer(row.stateSignedAtMilliseconds), .integer(row.updatedAtMilliseconds),
            ])
        }
    }

    func insertSubscriptionPeriod(_ period: SubscriptionPeriodRecord) throws(LedgerError) -> Bool {
        try sql { () throws(SQLiteError) in
            try connection.statement(SubscriptionsTable.insertPeriodSQL).run([
                .text(period.chain.store.rawValue), .text(period.chain.transactionID), .text(period.periodID),
                .integer(period.startsAt.ledgerMilliseconds), .integer(period.expiresAt.ledgerMilliseconds),
                .integer(period.grantedAt.ledgerMilliseconds),
            ])
            return connection.changes == 1
        }
    }

    /// A subscriptions row's columns, in `SubscriptionsTable.columns` order.
    static func subscriptionRow(_ row: SQLiteRow) -> StoredSubscriptionRow {
        StoredSubscriptionRow(
            store: row.text(0), chainID: row.text(1), playerID: row.text(2), productID: row.text(3),
            storeProductID: row.text(4), subscriptionGroup: row.text(5), state: row.text(6),
            expiresAtMilliseconds: row.int64(7), gracePeriodExpiresAtMilliseconds: row.optionalInt64(8),
            willAutoRenew: row.optionalInt64(9).map { $0 != 0 }, entitlementIDs: row.text(10),
            latestPeriodID: row.text(11), periodCount: row.int64(12), stateSignedAtMilliseconds: row.int64(13),
            updatedAtMilliseconds: row.int64(14))
    }

    func subscriptionRecord(_ row: StoredSubscriptionRow) throws(LedgerError) -> SubscriptionRecord {
        guard let record = row.record else { throw corrupt("subscription \(row.store)/\(row.chainID)") }
        return record
    }
}
