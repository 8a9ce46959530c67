import Foundation
import FulfillmentLedger

/// `pending_finishes`: the outbox of platform finishes of schemas 1 to 5. Migration 6 moves
/// its rows into their ledger records (`TransactionsTable.addPendingFinishSQL`) and drops it;
/// kept here for migration 1.
package enum PendingFinishesTable {
    static let createSQL = """
        CREATE TABLE pending_finishes (
            store TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            enqueued_at_ms INTEGER NOT NULL,
            attempt_count INTEGER NOT NULL DEFAULT 0,
            last_error TEXT,
            PRIMARY KEY (store, transaction_id),
            FOREIGN KEY (store, transaction_id) REFERENCES ledger_transactions (store, transaction_id)
        ) WITHOUT ROWID;
        CREATE INDEX pending_finishes_by_age ON pending_finishes (enqueued_at_ms);
        """
}
