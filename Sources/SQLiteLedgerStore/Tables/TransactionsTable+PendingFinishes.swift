import Foundation
import FulfillmentLedger

/// The pending finishes: the rows of `ledger_transactions` whose `finished_at_ms` is NULL,
/// read through the partial index `ledger_transactions_pending`, oldest first; or, in a file
/// not yet at schema 6, the rows of its `pending_finishes` outbox.
package struct PendingFinishesQueries: Sendable {
    /// The rows of `ledger_transactions` whose finish is pending (schema 6 on).
    static let current = PendingFinishesQueries(
        table: "ledger_transactions", since: "fulfilled_at_ms", attempts: "finish_attempts", error: "finish_error",
        pendingFilter: "finished_at_ms IS NULL")
    /// The outbox of schemas 1 to 5, which the doctor still reads in a file not yet migrated.
    static let legacy = PendingFinishesQueries(
        table: "pending_finishes", since: "enqueued_at_ms", attempts: "attempt_count", error: "last_error",
        pendingFilter: "1")

    let selectOneSQL: String
    let selectOldestSQL: String
    /// The rows after a cursor, in the same order: the doctor's next page.
    let selectAfterSQL: String
    let countSQL: String

    private init(table: String, since: String, attempts: String, error: String, pendingFilter: String) {
        let columns = "store, transaction_id, player_id, \(since), \(attempts), \(error)"
        let pending = "FROM \(table) WHERE \(pendingFilter)"
        let order = "ORDER BY \(since), store, transaction_id"
        selectOneSQL = "SELECT \(columns) \(pending) AND store = ? AND transaction_id = ?"
        selectOldestSQL = "SELECT \(columns) \(pending) \(order) LIMIT ?"
        selectAfterSQL = "SELECT \(columns) \(pending) AND (\(since), store, transaction_id) > (?, ?, ?) \(order) LIMIT ?"
        countSQL = "SELECT count(*) \(pending) AND \(since) <= ?"
    }

    static func decode(_ row: SQLiteRow) -> PendingFinish {
        PendingFinish(
            key: TransactionKey(store: PlatformStore(rawValue: row.text(0)), transactionID: row.text(1)),
            playerID: row.text(2), enqueuedAt: Date(ledgerMilliseconds: row.int64(3)),
            attemptCount: Int(row.optionalInt64(4) ?? 0), lastError: row.optionalText(5))
    }

    package static let recordFailureSQL = """
        UPDATE ledger_transactions SET finish_attempts = coalesce(finish_attempts, 0) + 1, finish_error = ?
        WHERE store = ? AND transaction_id = ? AND finished_at_ms IS NULL
        """
}

extension SQLiteLedgerSession {
    func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? {
        // A carried mark ends the pending finish once `markFinished` returned.
        guard !unsettledFinishMarks.contains(key) else { return nil }
        return try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesQueries.current.selectOneSQL)
                .queryOne([.text(key.store.rawValue), .text(key.transactionID)], PendingFinishesQueries.decode)
        }
    }

    func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        guard !unsettledFinishMarks.isEmpty else { return try pendingFinishes(limit: limit, in: .current) }
        // Carried marks end pending finishes the snapshot still holds: read past them, at most
        // as many more rows as marks are carried (a bounded number: `queueCountMax`).
        let rows = try pendingFinishes(limit: limit + unsettledFinishMarks.count, in: .current)
        let marks = unsettledFinishMarks
        return Array(rows.lazy.filter { !marks.contains($0.key) }.prefix(limit))
    }

    func pendingFinishes(limit: Int, in queries: PendingFinishesQueries) throws(LedgerError) -> [PendingFinish] {
        try sql { () throws(SQLiteError) in
            try connection.statement(queries.selectOldestSQL)
                .query([.integer(Int64(limit))], rowCountMax: limit, PendingFinishesQueries.decode)
        }
    }

    /// Pending finishes after `cursor` (from the oldest without one), at most `limit`.
    func pendingFinishes(
        after cursor: PendingFinishCursor?, limit: Int, in queries: PendingFinishesQueries = .current
    ) throws(LedgerError) -> [PendingFinish] {
        guard let cursor else { return try pendingFinishes(limit: limit, in: queries) }
        return try sql { () throws(SQLiteError) in
            try connection.statement(queries.selectAfterSQL).query(
                [
                    .integer(cursor.enqueuedAtMilliseconds), .text(cursor.key.store.rawValue), .text(cursor.key.transactionID),
                    .integer(Int64(limit)),
                ], rowCountMax: limit, PendingFinishesQueries.decode)
        }
    }

    /// How many finishes are pending, or, with a cutoff, how many were queued at or before it.
    func pendingFinishCount(
        enqueuedAtOrBefore cutoffMilliseconds: Int64 = .max, in queries: PendingFinishesQueries = .current
    ) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(queries.countSQL)
                .queryOne([.integer(cutoffMilliseconds)]) { $0.int64(0) } ?? 0
        }
    }

    func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PendingFinishesQueries.recordFailureSQL)
                .run([.text(message), .text(key.store.rawValue), .text(key.transactionID)])
        }
    }

    func markFinished(_ key: TransactionKey, at date: Date) throws(LedgerError) {
        try stampFinished(key, at: date)
    }
}
