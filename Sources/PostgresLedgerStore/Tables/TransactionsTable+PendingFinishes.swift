import Foundation
import FulfillmentLedger

/// The pending finishes: the rows of `ledger_transactions` whose `finished_at_ms` is NULL, read
/// through the partial index `ledger_transactions_pending`, oldest first.
enum PendingFinishesQueries {
    private static let columns = "store, transaction_id, player_id, fulfilled_at_ms, finish_attempts, finish_error"
    private static let pending = "FROM ledger_transactions WHERE finished_at_ms IS NULL"

    static let selectOneSQL = "SELECT \(columns) \(pending) AND store = $1 AND transaction_id = $2"
    static let selectOldestSQL = "SELECT \(columns) \(pending) ORDER BY fulfilled_at_ms, store, transaction_id LIMIT $1"
    /// The page after a cursor (the doctor's `--after`), in the index's order.
    static let selectAfterSQL = """
        SELECT \(columns) \(pending) AND (fulfilled_at_ms, store, transaction_id) > ($2, $3, $4)
        ORDER BY fulfilled_at_ms, store, transaction_id LIMIT $1
        """
    /// Every ledger record, pending or finished, for the doctor's report.
    static let countAllSQL = "SELECT count(*) FROM ledger_transactions"
    /// How many are pending, and how many of them were queued at or before a cutoff (overdue).
    static let countsSQL = "SELECT count(*), count(*) FILTER (WHERE fulfilled_at_ms <= $1) \(pending)"
    static let recordFailureSQL = """
        UPDATE ledger_transactions SET finish_attempts = coalesce(finish_attempts, 0) + 1, finish_error = $1
        WHERE store = $2 AND transaction_id = $3 AND finished_at_ms IS NULL
        """

    static func decode(_ row: PostgresRow) throws(PostgresError) -> PendingFinish {
        PendingFinish(
            key: TransactionKey(store: PlatformStore(rawValue: try row.text(0)), transactionID: try row.text(1)),
            playerID: try row.text(2), enqueuedAt: Date(ledgerMilliseconds: try row.int64(3)),
            attemptCount: Int(try row.optionalInt64(4) ?? 0), lastError: try row.optionalText(5))
    }
}

extension PostgresLedgerSession {
    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? {
        try one(PendingFinishesQueries.selectOneSQL, [.text(key.store.rawValue), .text(key.transactionID)]) {
            (row) throws(PostgresError) in try PendingFinishesQueries.decode(row)
        }
    }

    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        try rows(PendingFinishesQueries.selectOldestSQL, [.count(limit)], limit: limit) { (row) throws(PostgresError) in
            try PendingFinishesQueries.decode(row)
        }
    }

    /// At most `limit` pending finishes after `cursor` (from the oldest without one), oldest first.
    func pendingFinishes(after cursor: PendingFinishCursor?, limit: Int) throws(LedgerError) -> [PendingFinish] {
        guard let cursor else { return try pendingFinishes(limit: limit) }
        let parameters: [PostgresValue] = [
            .count(limit), .int64(cursor.enqueuedAtMilliseconds), .text(cursor.key.store.rawValue),
            .text(cursor.key.transactionID),
        ]
        return try rows(PendingFinishesQueries.selectAfterSQL, parameters, limit: limit) { (row) throws(PostgresError) in
            try PendingFinishesQueries.decode(row)
        }
    }

    /// How many ledger records there are.
    func transactionCount() throws(LedgerError) -> Int64 {
        try one(PendingFinishesQueries.countAllSQL, []) { (row) throws(PostgresError) in try row.int64(0) } ?? 0
    }

    /// How many finishes are pending, and how many were queued at or before `cutoffMilliseconds`.
    func pendingFinishCounts(enqueuedAtOrBefore cutoffMilliseconds: Int64) throws(LedgerError) -> (all: Int64, overdue: Int64) {
        try one(PendingFinishesQueries.countsSQL, [.int64(cutoffMilliseconds)]) { (row) throws(PostgresError) in
            (try row.int64(0), try row.int64(1))
        } ?? (0, 0)
    }

    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError) {
        try run(PendingFinishesQueries.recordFailureSQL, [.text(message), .text(key.store.rawValue), .text(key.transactionID)])
    }
}
