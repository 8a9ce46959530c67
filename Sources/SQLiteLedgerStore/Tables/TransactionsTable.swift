import Foundation
import FulfillmentLedger

/// `ledger_transactions`: the transaction ledger, one row per fulfilled purchase, keyed by
/// its ledger key across all players, and each row its own pending finish until it is marked
/// finished. Never cleared by a reset.
package enum TransactionsTable {
    static let createSQL = """
        CREATE TABLE ledger_transactions (
            store TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            store_product_id TEXT NOT NULL,
            product_kind TEXT NOT NULL,
            quantity INTEGER NOT NULL CHECK (quantity >= 1),
            environment TEXT NOT NULL,
            purchase_date_ms INTEGER NOT NULL,
            fulfilled_at_ms INTEGER NOT NULL,
            catalog_version TEXT NOT NULL,
            grants TEXT NOT NULL,
            finished_at_ms INTEGER,
            PRIMARY KEY (store, transaction_id)
        ) WITHOUT ROWID;
        CREATE INDEX ledger_transactions_by_player ON ledger_transactions (player_id, fulfilled_at_ms);
        """

    /// Added by migration 5: the key names the purchase, and `store_transaction_id` the
    /// delivery that was granted, stored only when it differs from the key (a non-consumable
    /// first fulfilled from a restore), so the partial index holds just those rows.
    /// `entitlements_listed` is 1 on rows whose grants list every entitlement the purchase
    /// pays for; rows written before it are NULL (they left out entitlements already owned).
    static let addDeliveryIDSQL = """
        ALTER TABLE ledger_transactions ADD COLUMN store_transaction_id TEXT;
        ALTER TABLE ledger_transactions ADD COLUMN entitlements_listed INTEGER;
        CREATE INDEX ledger_transactions_by_delivery ON ledger_transactions (store, store_transaction_id)
            WHERE store_transaction_id IS NOT NULL;
        """

    /// Added by migration 6: a record is its own pending finish until `finished_at_ms` is set,
    /// so a fulfillment writes no outbox row and its finish mark deletes none. The partial index
    /// holds only the pending rows, oldest first; `finish_attempts` and `finish_error` record
    /// failed attempts. The outbox rows of schema 4 move into their records.
    static let addPendingFinishSQL = """
        ALTER TABLE ledger_transactions ADD COLUMN finish_attempts INTEGER;
        ALTER TABLE ledger_transactions ADD COLUMN finish_error TEXT;
        UPDATE ledger_transactions SET
            finish_attempts = (SELECT NULLIF(p.attempt_count, 0) FROM pending_finishes p
                WHERE p.store = ledger_transactions.store AND p.transaction_id = ledger_transactions.transaction_id),
            finish_error = (SELECT p.last_error FROM pending_finishes p
                WHERE p.store = ledger_transactions.store AND p.transaction_id = ledger_transactions.transaction_id)
            WHERE finished_at_ms IS NULL;
        DROP TABLE pending_finishes;
        CREATE INDEX ledger_transactions_pending ON ledger_transactions (fulfilled_at_ms, store, transaction_id)
            WHERE finished_at_ms IS NULL;
        """

    /// Added by migration 8: the store's order ID of the granted delivery (Google Play
    /// `orderId`), so support finds a purchase from the player's receipt. Rows written before
    /// it read NULL; the partial index holds just the rows that have one.
    static let addOrderIDSQL = """
        ALTER TABLE ledger_transactions ADD COLUMN store_order_id TEXT;
        CREATE INDEX ledger_transactions_by_order ON ledger_transactions (store, store_order_id)
            WHERE store_order_id IS NOT NULL;
        """

    package static let columns = """
        store, transaction_id, player_id, product_id, store_product_id, product_kind, quantity, environment,
        purchase_date_ms, fulfilled_at_ms, catalog_version, grants, finished_at_ms, store_transaction_id,
        entitlements_listed, store_order_id
        """

    package static let selectOneSQL =
        "SELECT \(columns) FROM ledger_transactions WHERE store = ? AND transaction_id = ?"
    /// `INDEXED BY`: without statistics SQLite's planner prefers the primary key's `store`
    /// prefix, which scans every record of the store (a full scan per fulfillment on a large
    /// ledger), over the partial index whose leading columns match the whole condition.
    package static let selectByDeliverySQL = """
        SELECT \(columns) FROM ledger_transactions INDEXED BY ledger_transactions_by_delivery
        WHERE store = ? AND store_transaction_id = ?
        """
    /// `INDEXED BY` for the same reason as `selectByDeliverySQL`.
    static let selectByOrderSQL = """
        SELECT \(columns) FROM ledger_transactions INDEXED BY ledger_transactions_by_order
        WHERE store = ? AND store_order_id = ?
        """
    /// A key already taken inserts nothing (`changes` is 0): a concurrent delivery won.
    package static let insertSQL =
        "INSERT INTO ledger_transactions (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING"
    package static let stampFinishedSQL = """
        UPDATE ledger_transactions SET finished_at_ms = ?
        WHERE store = ? AND transaction_id = ? AND finished_at_ms IS NULL
        """

    /// Grant lines as every store keeps them (`StoredForm.grantsText`).
    package static func encodeGrants(_ grants: [GrantLine]) -> String { StoredForm.grantsText(grants) }
}

extension SQLiteLedgerSession {
    func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord? {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(TransactionsTable.selectOneSQL)
                .query([.text(key.store.rawValue), .text(key.transactionID)], rowCountMax: 1, Self.transactionRow)
        }
        return try rows.first.map { row throws(LedgerError) in try decodeTransaction(row) }
    }

    func transaction(store: PlatformStore, deliveryID: String) throws(LedgerError) -> TransactionRecord? {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(TransactionsTable.selectByDeliverySQL)
                .query([.text(store.rawValue), .text(deliveryID)], rowCountMax: 1, Self.transactionRow)
        }
        return try rows.first.map { row throws(LedgerError) in try decodeTransaction(row) }
    }

    func transaction(store: PlatformStore, orderID: String) throws(LedgerError) -> TransactionRecord? {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(TransactionsTable.selectByOrderSQL)
                .query([.text(store.rawValue), .text(orderID)], rowCountMax: 1, Self.transactionRow)
        }
        return try rows.first.map { row throws(LedgerError) in try decodeTransaction(row) }
    }

    func transactions(playerID: String, limit: Int) throws(LedgerError) -> [TransactionRecord] {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT \(TransactionsTable.columns) FROM ledger_transactions WHERE player_id = ?
                ORDER BY fulfilled_at_ms DESC, store DESC, transaction_id DESC LIMIT ?
                """
            ).query([.text(playerID), .integer(Int64(limit))], rowCountMax: limit, Self.transactionRow)
        }
        var records: [TransactionRecord] = []
        for row in rows { records.append(try decodeTransaction(row)) }
        return records
    }

    func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int] {
        try sql { () throws(SQLiteError) in
            let rows = try connection.statement(
                "SELECT product_id, count(*) FROM ledger_transactions GROUP BY product_id ORDER BY product_id LIMIT ?"
            ).query([.integer(Int64(limit))], rowCountMax: limit) { row in (row.text(0), Int(row.int64(1))) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func saleCountsByStoreProduct(limit: Int) throws(LedgerError) -> [StoreProductSaleCount] {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT product_id, store, store_product_id, count(*) FROM ledger_transactions
                GROUP BY product_id, store, store_product_id ORDER BY product_id, store, store_product_id LIMIT ?
                """
            ).query([.integer(Int64(limit))], rowCountMax: limit) { row in
                StoreProductSaleCount(
                    productID: row.text(0),
                    storeProduct: StoreProductKey(store: PlatformStore(rawValue: row.text(1)), storeProductID: row.text(2)),
                    count: Int(row.int64(3)))
            }
        }
    }

    func insertTransaction(_ record: TransactionRecord) throws(LedgerError) -> Bool {
        let grants = TransactionsTable.encodeGrants(record.grants)
        return try sql { () throws(SQLiteError) in
            try connection.statement(TransactionsTable.insertSQL).run([
                .text(record.key.store.rawValue), .text(record.key.transactionID), .text(record.playerID),
                .text(record.productID), .text(record.storeProductID), .text(record.productKind.rawValue),
                .integer(Int64(record.quantity)), .text(record.environment.rawValue),
                .integer(record.purchaseDate.ledgerMilliseconds), .integer(record.fulfilledAt.ledgerMilliseconds),
                .text(record.catalogVersion), .text(grants), .integer(record.finishedAt?.ledgerMilliseconds),
                .text(record.storeTransactionID == record.key.transactionID ? nil : record.storeTransactionID),
                .integer(record.entitlementsListed ? 1 : nil), .text(record.storeOrderID),
            ])
            return connection.changes == 1
        }
    }

    /// Stamps the record finished, which ends its pending finish.
    func stampFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(TransactionsTable.stampFinishedSQL)
                .run([.integer(date.ledgerMilliseconds), .text(key.store.rawValue), .text(key.transactionID)])
        }
    }

    /// Moves a ledger record (and with it its pending finish) to another player; an unknown key changes nothing.
    func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement("UPDATE ledger_transactions SET player_id = ? WHERE store = ? AND transaction_id = ?")
                .run([.text(playerID), .text(key.store.rawValue), .text(key.transactionID)])
        }
    }

    private static func transactionRow(_ row: SQLiteRow) -> StoredTransactionRow {
        StoredTransactionRow(
            store: row.text(0), transactionID: row.text(1), playerID: row.text(2), productID: row.text(3),
            storeProductID: row.text(4), kind: row.text(5), quantity: row.int64(6), environment: row.text(7),
            purchaseMilliseconds: row.int64(8), fulfilledMilliseconds: row.int64(9), catalogVersion: row.text(10),
            grants: row.text(11), finishedMilliseconds: row.optionalInt64(12), storeTransactionID: row.optionalText(13),
            entitlementsListed: row.optionalInt64(14) != nil, storeOrderID: row.optionalText(15))
    }

    /// A stored record, stamped finished when a mark carried for it has not committed yet.
    private func decodeTransaction(_ row: StoredTransactionRow) throws(LedgerError) -> TransactionRecord {
        unsettledFinishMarks.apply(to: try row.record(corrupt: corrupt))
    }
}
