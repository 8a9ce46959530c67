import Foundation

/// `ledger_transactions`: the transaction ledger, one row per fulfilled purchase, keyed by its
/// ledger key across all players, each row its own pending finish until it is marked finished
/// (the partial index `ledger_transactions_pending` holds only those). Never cleared by a reset.
///
/// `store_transaction_id` is the granted delivery's ID, stored only when it differs from the
/// key (a non-consumable first fulfilled from a restore), so its partial index holds just
/// those rows; `entitlements_listed` is true on rows whose grants list every entitlement the
/// purchase pays for (rows of old schemas are NULL); `store_order_id` is the store's order ID
/// (Google Play `orderId`).
package enum TransactionsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    package static let schema = SQLTable(
        "ledger_transactions",
        columns: [
            SQLColumn("store", .key), SQLColumn("transaction_id", .key), SQLColumn("player_id", .key),
            SQLColumn("product_id", .key), SQLColumn("store_product_id", .key), SQLColumn("product_kind", .text),
            SQLColumn("quantity", .integer, check: "quantity >= 1"), SQLColumn("environment", .text),
            SQLColumn("purchase_date_ms", .integer), SQLColumn("fulfilled_at_ms", .integer), SQLColumn("catalog_version", .text),
            SQLColumn("grants", .text), SQLColumn("finished_at_ms", .integer, isNullable: true),
            SQLColumn("store_transaction_id", .key, isNullable: true), SQLColumn("entitlements_listed", .boolean, isNullable: true),
            SQLColumn("finish_attempts", .integer, isNullable: true), SQLColumn("finish_error", .text, isNullable: true),
            SQLColumn("store_order_id", .key, isNullable: true),
        ],
        primaryKey: ["store", "transaction_id"],
        indexes: [
            SQLIndex("ledger_transactions_by_player", on: ["player_id", "fulfilled_at_ms"]),
            SQLIndex("ledger_transactions_by_delivery", on: ["store", "store_transaction_id"], where: "store_transaction_id IS NOT NULL"),
            SQLIndex(
                "ledger_transactions_pending", on: ["fulfilled_at_ms", "store", "transaction_id"], where: "finished_at_ms IS NULL"),
            SQLIndex("ledger_transactions_by_order", on: ["store", "store_order_id"], where: "store_order_id IS NOT NULL"),
        ])

    package static let columns = """
        store, transaction_id, player_id, product_id, store_product_id, product_kind, quantity, environment,
        purchase_date_ms, fulfilled_at_ms, catalog_version, grants, finished_at_ms, store_transaction_id,
        entitlements_listed, store_order_id
        """
    package static let selectOneSQL = "SELECT \(columns) FROM ledger_transactions WHERE store = ? AND transaction_id = ?"
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
    static let selectByPlayerSQL = """
        SELECT \(columns) FROM ledger_transactions WHERE player_id = ?
        ORDER BY fulfilled_at_ms DESC, store DESC, transaction_id DESC LIMIT ?
        """
    /// A key already taken inserts nothing (no row changed): a concurrent delivery won.
    package static let insertSQL = """
        INSERT INTO ledger_transactions (\(columns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING
        """
    package static let stampFinishedSQL = """
        UPDATE ledger_transactions SET finished_at_ms = ?
        WHERE store = ? AND transaction_id = ? AND finished_at_ms IS NULL
        """
    static let reassignSQL = "UPDATE ledger_transactions SET player_id = ? WHERE store = ? AND transaction_id = ?"
    static let saleCountsSQL =
        "SELECT product_id, count(*) FROM ledger_transactions GROUP BY product_id ORDER BY product_id LIMIT ?"
    static let storeProductSaleCountsSQL = """
        SELECT product_id, store, store_product_id, count(*) FROM ledger_transactions
        GROUP BY product_id, store, store_product_id ORDER BY product_id, store, store_product_id LIMIT ?
        """
    static let countAllSQL = "SELECT count(*) FROM ledger_transactions"

    /// The values of `columns` for a record, in order.
    package static func values(_ record: TransactionRecord) -> [SQLValue] {
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

    /// A row of `columns` as read.
    static func row(_ row: SQLRow) throws(LedgerError) -> StoredTransactionRow {
        StoredTransactionRow(
            store: try row.text(0), transactionID: try row.text(1), playerID: try row.text(2),
            productID: try row.text(3), storeProductID: try row.text(4), kind: try row.text(5),
            quantity: try row.int64(6), environment: try row.text(7), purchaseMilliseconds: try row.int64(8),
            fulfilledMilliseconds: try row.int64(9), catalogVersion: try row.text(10), grants: try row.text(11),
            finishedMilliseconds: try row.optionalInt64(12), storeTransactionID: try row.optionalText(13),
            entitlementsListed: !row.isNull(14), storeOrderID: try row.optionalText(15))
    }
}

extension LedgerReader {
    /// The ledger record for a transaction, if it was fulfilled.
    public func transaction(_ key: TransactionKey) throws(LedgerError) -> TransactionRecord? {
        try record(TransactionsTable.selectOneSQL, [.text(key.store.rawValue), .text(key.transactionID)])
    }

    /// The record whose granted delivery has this store ID while its key is another ID (a
    /// non-consumable first fulfilled from a restore), if any.
    public func transaction(store: PlatformStore, deliveryID: String) throws(LedgerError) -> TransactionRecord? {
        try record(TransactionsTable.selectByDeliverySQL, [.text(store.rawValue), .text(deliveryID)])
    }

    /// The record of `store` whose store order ID (Google Play `orderId`) is `orderID`, if any.
    public func transaction(store: PlatformStore, orderID: String) throws(LedgerError) -> TransactionRecord? {
        try record(TransactionsTable.selectByOrderSQL, [.text(store.rawValue), .text(orderID)])
    }

    /// A player's records, newest fulfillment first, at most `limit`.
    public func transactions(playerID: String, limit: Int) throws(LedgerError) -> [TransactionRecord] {
        try rows(TransactionsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit) {
            (row) throws(LedgerError) in try decodeTransaction(try TransactionsTable.row(row))
        }
    }

    /// How many ledger records each catalog product has (what has been sold), for at most `limit` products.
    public func saleCountsByProduct(limit: Int) throws(LedgerError) -> [String: Int] {
        let counts = try rows(TransactionsTable.saleCountsSQL, [.count(limit)], limit: limit) { (row) throws(LedgerError) in
            (try row.text(0), Int(try row.int64(1)))
        }
        return Dictionary(counts, uniquingKeysWith: { first, _ in first })
    }

    /// How many ledger records each (catalog product, store product) pair has, for at most
    /// `limit` pairs: what was sold under each store product ID.
    public func saleCountsByStoreProduct(limit: Int) throws(LedgerError) -> [StoreProductSaleCount] {
        try rows(TransactionsTable.storeProductSaleCountsSQL, [.count(limit)], limit: limit) { (row) throws(LedgerError) in
            StoreProductSaleCount(
                productID: try row.text(0),
                storeProduct: StoreProductKey(store: PlatformStore(rawValue: try row.text(1)), storeProductID: try row.text(2)),
                count: Int(try row.int64(3)))
        }
    }

    /// How many ledger records there are, pending or finished, for a doctor's report.
    package func transactionCount() throws(LedgerError) -> Int64 {
        try one(TransactionsTable.countAllSQL, []) { (row) throws(LedgerError) in try row.int64(0) } ?? 0
    }

    /// The one record a query by a unique key finds, if any.
    private func record(_ statement: String, _ parameters: [SQLValue]) throws(LedgerError) -> TransactionRecord? {
        try one(statement, parameters) { (row) throws(LedgerError) in try decodeTransaction(try TransactionsTable.row(row)) }
    }

    /// A stored record, stamped finished when a mark carried for it has not committed yet.
    private func decodeTransaction(_ row: StoredTransactionRow) throws(LedgerError) -> TransactionRecord {
        unsettledFinishMarks.apply(to: try row.record(corrupt: corrupt))
    }
}

extension LedgerWriter {
    /// Adds a ledger record, pending its finish while `finishedAt` is nil. Returns false, and
    /// writes nothing, when a record with its key exists (a concurrent delivery committed it).
    @discardableResult
    public func insertTransaction(_ record: TransactionRecord) throws(LedgerError) -> Bool {
        try run(TransactionsTable.insertSQL, TransactionsTable.values(record)) == 1
    }

    /// Stamps the record finished, which ends its pending finish.
    public func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        try run(TransactionsTable.stampFinishedSQL, [.milliseconds(date), .text(key.store.rawValue), .text(key.transactionID)])
    }

    /// Moves a transaction's ledger record (and its pending finish) to another player.
    public func reassignTransaction(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError) {
        try run(TransactionsTable.reassignSQL, [.text(playerID), .text(key.store.rawValue), .text(key.transactionID)])
    }
}
