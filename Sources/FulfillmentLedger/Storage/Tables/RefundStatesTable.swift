import Foundation

/// `refund_states`: where each fulfilled transaction stands after refunds and reversals. A row
/// exists only once an event has touched the transaction; its ledger record is checked at
/// commit (a deferred reference). Kept by a game reset.
enum RefundStatesTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "refund_states",
        columns: [
            SQLColumn("store", .key), SQLColumn("transaction_id", .key), SQLColumn("status", .text),
            SQLColumn("refunded_quantity", .integer, check: "refunded_quantity >= 0"),
            SQLColumn("last_take_back_ms", .integer, isNullable: true), SQLColumn("last_reversal_ms", .integer, isNullable: true),
        ],
        primaryKey: ["store", "transaction_id"],
        foreignKeys: [SQLForeignKey(["store", "transaction_id"], references: "ledger_transactions", ["store", "transaction_id"])])

    static let selectOneSQL = """
        SELECT status, refunded_quantity, last_take_back_ms, last_reversal_ms
        FROM refund_states WHERE store = ? AND transaction_id = ?
        """
    static let upsertSQL = """
        INSERT INTO refund_states (store, transaction_id, status, refunded_quantity, last_take_back_ms, last_reversal_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (store, transaction_id) DO UPDATE SET
            status = excluded.status, refunded_quantity = excluded.refunded_quantity,
            last_take_back_ms = excluded.last_take_back_ms, last_reversal_ms = excluded.last_reversal_ms
        """
}

extension LedgerReader {
    /// A transaction's refund state; nil when no event has touched it.
    public func refundState(_ key: TransactionKey) throws(LedgerError) -> RefundState? {
        let row = try one(RefundStatesTable.selectOneSQL, [.text(key.store.rawValue), .text(key.transactionID)]) {
            (row) throws(LedgerError) in
            (try row.text(0), try row.int64(1), try row.optionalInt64(2), try row.optionalInt64(3))
        }
        guard let row else { return nil }
        guard let status = RefundState.Status(rawValue: row.0) else { throw corrupt("refund status \(row.0)") }
        return RefundState(
            key: key, status: status, refundedQuantity: Int(row.1), lastTakeBackDate: row.2.map(Date.init(ledgerMilliseconds:)),
            lastReversalDate: row.3.map(Date.init(ledgerMilliseconds:)))
    }
}

extension LedgerWriter {
    /// Inserts or replaces a transaction's refund state.
    public func upsertRefundState(_ state: RefundState) throws(LedgerError) {
        try run(
            RefundStatesTable.upsertSQL,
            [
                .text(state.key.store.rawValue), .text(state.key.transactionID), .text(state.status.rawValue),
                .count(state.refundedQuantity), .milliseconds(state.lastTakeBackDate), .milliseconds(state.lastReversalDate),
            ])
    }
}
