import Foundation

/// The pending finishes: the rows of `ledger_transactions` whose `finished_at_ms` is NULL,
/// read through the partial index `ledger_transactions_pending`, oldest first. A store whose
/// old schemas kept them elsewhere (SQLite's `pending_finishes` outbox before schema 6) reads
/// those with queries of its own shape.
package struct PendingFinishesQueries: Sendable {
    /// The rows of `ledger_transactions` whose finish is pending.
    package static let current = PendingFinishesQueries(
        table: "ledger_transactions", since: "fulfilled_at_ms", attempts: "finish_attempts", error: "finish_error",
        pendingFilter: "finished_at_ms IS NULL")

    let selectOneSQL: String
    let selectOldestSQL: String
    /// The rows after a cursor, in the same order: the doctor's next page.
    let selectAfterSQL: String
    /// How many are pending, and how many were queued at or before a cutoff (overdue).
    let countsSQL: String

    /// Queries over `table`, whose pending rows match `pendingFilter`, queued at `since`, with
    /// failed attempts counted in `attempts` and the last failure in `error`.
    package init(table: String, since: String, attempts: String, error: String, pendingFilter: String) {
        let columns = "store, transaction_id, player_id, \(since), \(attempts), \(error)"
        let pending = "FROM \(table) WHERE \(pendingFilter)"
        let order = "ORDER BY \(since), store, transaction_id"
        selectOneSQL = "SELECT \(columns) \(pending) AND store = ? AND transaction_id = ?"
        selectOldestSQL = "SELECT \(columns) \(pending) \(order) LIMIT ?"
        selectAfterSQL = "SELECT \(columns) \(pending) AND (\(since), store, transaction_id) > (?, ?, ?) \(order) LIMIT ?"
        countsSQL = "SELECT count(*), count(*) FILTER (WHERE \(since) <= ?) \(pending)"
    }

    static let recordFailureSQL = """
        UPDATE ledger_transactions SET finish_attempts = coalesce(finish_attempts, 0) + 1, finish_error = ?
        WHERE store = ? AND transaction_id = ? AND finished_at_ms IS NULL
        """

    static func decode(_ row: SQLRow) throws(LedgerError) -> PendingFinish {
        PendingFinish(
            key: TransactionKey(store: PlatformStore(rawValue: try row.text(0)), transactionID: try row.text(1)),
            playerID: try row.text(2), enqueuedAt: Date(ledgerMilliseconds: try row.int64(3)),
            attemptCount: Int(try row.optionalInt64(4) ?? 0), lastError: try row.optionalText(5))
    }
}

extension LedgerReader {
    /// The pending finish of a transaction (a record whose `finishedAt` is nil), if any.
    public func pendingFinish(_ key: TransactionKey) throws(LedgerError) -> PendingFinish? {
        // A carried mark ends the pending finish once `markFinished` returned.
        guard !unsettledFinishMarks.contains(key) else { return nil }
        return try one(
            PendingFinishesQueries.current.selectOneSQL, [.text(key.store.rawValue), .text(key.transactionID)],
            PendingFinishesQueries.decode)
    }

    /// Pending finishes, oldest first, at most `limit`.
    public func pendingFinishes(limit: Int) throws(LedgerError) -> [PendingFinish] {
        guard !unsettledFinishMarks.isEmpty else { return try pendingFinishes(after: nil, limit: limit) }
        // Carried marks end pending finishes the snapshot still holds: read past them, at most
        // as many more rows as marks are carried (a bounded number, the store's queue limit).
        let found = try pendingFinishes(after: nil, limit: limit + unsettledFinishMarks.count)
        let marks = unsettledFinishMarks
        return Array(found.lazy.filter { !marks.contains($0.key) }.prefix(limit))
    }

    /// At most `limit` pending finishes after `cursor` (from the oldest without one), oldest first.
    package func pendingFinishes(
        after cursor: PendingFinishCursor?, limit: Int, in queries: PendingFinishesQueries = .current
    ) throws(LedgerError) -> [PendingFinish] {
        guard let cursor else {
            return try rows(queries.selectOldestSQL, [.count(limit)], limit: limit, PendingFinishesQueries.decode)
        }
        let parameters: [SQLValue] = [
            .integer(cursor.enqueuedAtMilliseconds), .text(cursor.key.store.rawValue), .text(cursor.key.transactionID),
            .count(limit),
        ]
        return try rows(queries.selectAfterSQL, parameters, limit: limit, PendingFinishesQueries.decode)
    }

    /// How many finishes are pending, and how many were queued at or before `cutoffMilliseconds`.
    package func pendingFinishCounts(
        enqueuedAtOrBefore cutoffMilliseconds: Int64, in queries: PendingFinishesQueries = .current
    ) throws(LedgerError) -> (all: Int64, overdue: Int64) {
        try one(queries.countsSQL, [.integer(cutoffMilliseconds)]) { (row) throws(LedgerError) in
            (try row.int64(0), try row.int64(1))
        } ?? (0, 0)
    }
}

extension LedgerWriter {
    /// Records a failed finish attempt on a record still pending its finish.
    public func recordFinishFailure(_ key: TransactionKey, message: String) throws(LedgerError) {
        try run(PendingFinishesQueries.recordFailureSQL, [.text(message), .text(key.store.rawValue), .text(key.transactionID)])
    }
}
