import Foundation
import FulfillmentLedger

/// `pending_finishes`: the durable outbox of platform finishes still owed. A row is
/// added in the grant's transaction and deleted when the finish is marked done.
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

    private static let columns = "store, transaction_id, player_id, enqueued_at_ms, attempt_count, last_error"

    static func decode(_ row: SQLiteRow) -> PendingFinish {
        PendingFinish(
            key: TransactionKey(store: PlatformStore(rawValue: row.text(0)), transactionID: row.text(1)),
            playerID: row.text(2), enqueuedAt: Date(ledgerMilliseconds: row.int64(3)),
            attemptCount: Int(row.int64(4)), lastError: row.optionalText(5))
    }

    static let selectOneSQL = "SELECT \(columns) FROM pending_finishes WHERE store = ? AND transaction_id = ?"
    static let selectOldestSQL =
        "SELECT \(columns) FROM pending_finishes ORDER BY enqueued_at_ms, store, transaction_id LIMIT ?"
    /// The rows after a cursor, in the same order: the doctor's next page.
    static let selectAfterSQL = """
        SELECT \(columns) FROM pending_finishes WHERE (enqueued_at_ms, store, transaction_id) > (?, ?, ?)
        ORDER BY enqueued_at_ms, store, transaction_id LIMIT ?
        """
    package static let insertSQL = """
        INSERT INTO pending_finishes (store, transaction_id, player_id, enqueued_at_ms, attempt_count, last_error)
        VALUES (?, ?, ?, ?, ?, ?)
        """
    package static let deleteOneSQL = "DELETE FROM pending_finishes WHERE store = ? AND transaction_id = ?"
}

extension SQLiteLedgerSession {
    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? {
        try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesTable.selectOneSQL)
                .queryOne([.text(key.store.rawValue), .text(key.transactionID)], PendingFinishesTable.decode)
        }
    }

    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesTable.selectOldestSQL)
                .query([.integer(Int64(limit))], rowCountMax: limit, PendingFinishesTable.decode)
        }
    }

    /// Pending finishes after `cursor` (from the oldest without one), at most `limit`.
    func pendingFinishes(after cursor: PendingFinishCursor?, limit: Int) throws(LedgerError) -> [PendingFinish] {
        guard let cursor else { return try pendingFinishes(limit: limit) }
        return try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesTable.selectAfterSQL).query(
                [
                    .integer(cursor.enqueuedAtMilliseconds), .text(cursor.key.store.rawValue), .text(cursor.key.transactionID),
                    .integer(Int64(limit)),
                ], rowCountMax: limit, PendingFinishesTable.decode)
        }
    }

    /// How many finishes are pending, or, with a cutoff, how many were queued at or before it.
    func pendingFinishCount(enqueuedAtOrBefore cutoffMilliseconds: Int64 = .max) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement("SELECT count(*) FROM pending_finishes WHERE enqueued_at_ms <= ?")
                .queryOne([.integer(cutoffMilliseconds)]) { $0.int64(0) } ?? 0
        }
    }

    func enqueueFinish(_ pending: PendingFinish) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesTable.insertSQL).run([
                .text(pending.key.store.rawValue), .text(pending.key.transactionID), .text(pending.playerID),
                .integer(pending.enqueuedAt.ledgerMilliseconds), .integer(Int64(pending.attemptCount)),
                .text(pending.lastError),
            ])
        }
    }

    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                UPDATE pending_finishes SET attempt_count = attempt_count + 1, last_error = ?
                WHERE store = ? AND transaction_id = ?
                """
            ).run([.text(message), .text(key.store.rawValue), .text(key.transactionID)])
        }
    }

    func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesTable.deleteOneSQL)
                .run([.text(key.store.rawValue), .text(key.transactionID)])
        }
        try stampFinished(key, at: date)
    }

    /// Moves the outbox row, if any, with its ledger record to another player.
    func reassignPendingFinish(_ key: TransactionKey, toPlayerID playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement("UPDATE pending_finishes SET player_id = ? WHERE store = ? AND transaction_id = ?")
                .run([.text(playerID), .text(key.store.rawValue), .text(key.transactionID)])
        }
    }
}
