import Foundation
import FulfillmentLedger

/// `ledger_transactions`: the transaction ledger, one row per fulfilled purchase, keyed by its
/// ledger key across all players, each row its own pending finish until it is marked finished
/// (the partial index `ledger_transactions_pending` holds only those). Never cleared by a reset.
enum TransactionsTable {
    static let createSQL = """
        CREATE TABLE ledger_transactions (
            store text COLLATE "C" NOT NULL,
            transaction_id text COLLATE "C" NOT NULL,
            player_id text COLLATE "C" NOT NULL,
            product_id text COLLATE "C" NOT NULL,
            store_product_id text COLLATE "C" NOT NULL,
            product_kind text NOT NULL,
            quantity bigint NOT NULL CHECK (quantity >= 1),
            environment text NOT NULL,
            purchase_date_ms bigint NOT NULL,
            fulfilled_at_ms bigint NOT NULL,
            catalog_version text NOT NULL,
            grants text NOT NULL,
            finished_at_ms bigint,
            store_transaction_id text COLLATE "C",
            entitlements_listed boolean,
            finish_attempts bigint,
            finish_error text,
            PRIMARY KEY (store, transaction_id)
        );
        CREATE INDEX ledger_transactions_by_player ON ledger_transactions (player_id, fulfilled_at_ms);
        CREATE INDEX ledger_transactions_by_delivery ON ledger_transactions (store, store_transaction_id)
            WHERE store_transaction_id IS NOT NULL;
        CREATE INDEX ledger_transactions_pending ON ledger_transactions (fulfilled_at_ms, store, transaction_id)
            WHERE finished_at_ms IS NULL;
        """

    /// Added by migration 3: the store's order ID of the granted delivery (Google Play
    /// `orderId`); rows written before it read NULL, and the partial index holds just the rows
    /// that have one.
    static let addOrderIDSQL = """
        ALTER TABLE ledger_transactions ADD COLUMN store_order_id text COLLATE "C";
        CREATE INDEX ledger_transactions_by_order ON ledger_transactions (store, store_order_id)
            WHERE store_order_id IS NOT NULL;
        """

    static let columns = """
        store, transaction_id, player_id, product_id, store_product_id, product_kind, quantity, environment,
        purchase_date_ms, fulfilled_at_ms, catalog_version, grants, finished_at_ms, store_transaction_id,
        entitlements_listed, store_order_id
        """
    static let selectOneSQL = "SELECT \(columns) FROM ledger_transactions WHERE store = $1 AND transaction_id = $2"
    static let selectByDeliverySQL =
        "SELECT \(columns) FROM ledger_transactions WHERE store = $1 AND store_transaction_id = $2"
    static let selectByOrderSQL =
        "SELECT \(columns) FROM ledger_transactions WHERE store = $1 AND store_order_id = $2"
    static let selectByPlayerSQL = """
        SELECT \(columns) FROM ledger_transactions WHERE player_id = $1
        ORDER BY fulfilled_at_ms DESC, store DESC, transaction_id DESC LIMIT $2
        """
    /// A key already taken inserts nothing: a concurrent delivery won.
    static let insertSQL = """
        INSERT INTO ledger_transactions (\(columns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16) ON CONFLICT DO NOTHING
        """
    static let stampFinishedSQL = """
        UPDATE ledger_transactions SET finished_at_ms = $1
        WHERE store = $2 AND transaction_id = $3 AND finished_at_ms IS NULL
        """
    static let reassignSQL = "UPDATE ledger_transactions SET player_id = $1 WHERE store = $2 AND transaction_id = $3"
    static let saleCountsSQL = """
        SELECT product_id, count(*) FROM ledger_transactions GROUP BY product_id ORDER BY product_id LIMIT $1
        """
    static let storeProductSaleCountsSQL = """
        SELECT product_id, store, store_product_id, count(*) FROM ledger_transactions
        GROUP BY product_id, store, store_product_id ORDER BY product_id, store, store_product_id LIMIT $1
        """

    /// The values of `columns` for a record, in order.
    static func values(_ record: TransactionRecord) -> [PostgresValue] {
        [
            .text(record.key.store.rawValue), .text(record.key.transactionID), .text(record.playerID),
            .text(record.productID), .text(record.storeProductID), .text(record.productKind.rawValue),
            .count(record.quantity), .text(record.environment.rawValue), .milliseconds(record.purchaseDate),
            .milliseconds(record.fulfilledAt), .text(record.catalogVersion), .text(StoredForm.grantsText(record.grants)),
            .milliseconds(record.finishedAt),
            .text(record.storeTransactionID == record.key.transactionID ? nil : record.storeTransactionID),
            .bool(record.entitlementsListed ? true : nil), .text(record.storeOrderID),
        ]
    }

    /// A row of `columns` as read, decoded outside the PostgreSQL closure so a bad value throws a `LedgerError`.
    static func row(_ row: PostgresRow) throws(PostgresError) -> StoredTransactionRow {
        StoredTransactionRow(
            store: try row.text(0), transactionID: try row.text(1), playerID: try row.text(2),
            productID: try row.text(3), storeProductID: try row.text(4), kind: try row.text(5),
            quantity: try row.int64(6), environment: try row.text(7), purchaseMilliseconds: try row.int64(8),
            fulfilledMilliseconds: try row.int64(9), catalogVersion: try row.text(10), grants: try row.text(11),
            finishedMilliseconds: try row.optionalInt64(12), storeTransactionID: try row.optionalText(13),
            entitlementsListed: try row.optionalBool(14) != nil, storeOrderID: try row.optionalText(15))
    }
}

extension PostgresLedgerSession {
    func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord? {
        let row = try one(TransactionsTable.selectOneSQL, [.text(key.store.rawValue), .text(key.transactionID)]) {
            (row) throws(PostgresError) in try TransactionsTable.row(row)
        }
        return try row.map { (row) throws(LedgerError) in try decodeTransaction(row) }
    }

    func transaction(store: PlatformStore, orderID: String) throws(LedgerError) -> TransactionRecord? {
        let row = try one(TransactionsTable.selectByOrderSQL, [.text(store.rawValue), .text(orderID)]) {
            (row) throws(PostgresError) in try TransactionsTable.row(row)
        }
        return try row.map { (row) throws(LedgerError) in try decodeTransaction(row) }
    }

    func transaction(store: PlatformStore, deliveryID: String) throws(LedgerError) -> TransactionRecord? {
        let row = try one(TransactionsTable.selectByDeliverySQL, [.text(store.rawValue), .text(deliveryID)]) {
            (row) throws(PostgresError) in try TransactionsTable.row(row)
        }
        return try row.map { (row) throws(LedgerError) in try decodeTransaction(row) }
    }

    func transactions(playerID: String, limit: Int) throws(LedgerError) -> [TransactionRecord] {
        let found = try rows(TransactionsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit) {
            (row) throws(PostgresError) in try TransactionsTable.row(row)
        }
        var records: [TransactionRecord] = []
        for row in found { records.append(try decodeTransaction(row)) }
        return records
    }

    func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int] {
        let counts = try rows(TransactionsTable.saleCountsSQL, [.count(limit)], limit: limit) {
            (row) throws(PostgresError) in (try row.text(0), Int(try row.int64(1)))
        }
        return Dictionary(counts, uniquingKeysWith: { first, _ in first })
    }

    func saleCountsByStoreProduct(limit: Int) throws(LedgerError) -> [StoreProductSaleCount] {
        try rows(TransactionsTable.storeProductSaleCountsSQL, [.count(limit)], limit: limit) { (row) throws(PostgresError) in
            StoreProductSaleCount(
                productID: try row.text(0),
                storeProduct: StoreProductKey(store: PlatformStore(rawValue: try row.text(1)), storeProductID: try row.text(2)),
                count: Int(try row.int64(3)))
        }
    }

    func insertTransaction(_ record: TransactionRecord) throws(LedgerError) -> Bool {
        try run(TransactionsTable.insertSQL, TransactionsTable.values(record)) == 1
    }

    func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        try run(TransactionsTable.stampFinishedSQL, [.milliseconds(date), .text(key.store.rawValue), .text(key.transactionID)])
    }

    func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError) {
        try run(TransactionsTable.reassignSQL, [.text(playerID), .text(key.store.rawValue), .text(key.transactionID)])
    }

    private func decodeTransaction(_ row: StoredTransactionRow) throws(LedgerError) -> TransactionRecord {
        try row.record(corrupt: corrupt)
    }
}
