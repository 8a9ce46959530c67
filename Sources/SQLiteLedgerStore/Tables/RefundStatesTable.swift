import Foundation
import FulfillmentLedger

/// `refund_states`: where each fulfilled transaction stands after refunds and reversals.
/// A row exists only once an event has touched the transaction. Kept by a game reset.
enum RefundStatesTable {
    // The reference is deferred, like the entitlements' source: a purchase and the events
    // that waited for it may be written in either order within one transaction.
    static let createSQL = """
        CREATE TABLE refund_states (
            store TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            status TEXT NOT NULL,
            refunded_quantity INTEGER NOT NULL CHECK (refunded_quantity >= 0),
            last_take_back_ms INTEGER,
            last_reversal_ms INTEGER,
            PRIMARY KEY (store, transaction_id),
            FOREIGN KEY (store, transaction_id)
                REFERENCES ledger_transactions (store, transaction_id) DEFERRABLE INITIALLY DEFERRED
        ) WITHOUT ROWID;
        """

    static let selectOneSQL = """
        SELECT status, refunded_quantity, last_take_back_ms, last_reversal_ms
        FROM refund_states WHERE store = ? AND transaction_id = ?
        """
    static let upsertSQL = """
        INSERT INTO refund_states
            (store, transaction_id, status, refunded_quantity, last_take_back_ms, last_reversal_ms)
        VALUES (?, ?, ?, ?, ?, ?)
        ON CONFLICT (store, transaction_id) DO UPDATE SET
            status = excluded.status, refunded_quantity = excluded.refunded_quantity,
            last_take_back_ms = excluded.last_take_back_ms, last_reversal_ms = excluded.last_reversal_ms
        """
}

extension SQLiteLedgerSession {
    /// A transaction's refund state, if an event has touched it.
    func refundState(_ key: TransactionKey) throws(LedgerError) -> RefundState? {
        let row = try sql { () throws(SQLiteError) in
            try connection.statement(RefundStatesTable.selectOneSQL)
                .queryOne([.text(key.store.rawValue), .text(key.transactionID)]) { row in
                    (row.text(0), row.int64(1), row.optionalInt64(2), row.optionalInt64(3))
                }
        }
        guard let row else { return nil }
        guard let status = RefundState.Status(rawValue: row.0) else { throw corrupt("refund status \(row.0)") }
        return RefundState(
            key: key, status: status, refundedQuantity: Int(row.1),
            lastTakeBackDate: row.2.map(Date.init(ledgerMilliseconds:)),
            lastReversalDate: row.3.map(Date.init(ledgerMilliseconds:)))
    }

    /// Inserts or replaces a refund state; its ledger record is checked at commit.
    func upsertRefundState(_ state: RefundState) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(RefundStatesTable.upsertSQL).run([
                .text(state.key.store.rawValue), .text(state.key.transactionID), .text(state.status.rawValue),
                .integer(Int64(state.refundedQuantity)), .integer(state.lastTakeBackDate?.ledgerMilliseconds),
                .integer(state.lastReversalDate?.ledgerMilliseconds),
            ])
        }
    }
}
