import Foundation

/// `attempts`: the attempts journal, one row per submission that granted nothing (rejected or
/// failed), for support. `attempt_counts` holds each budget's row count, so that keeping the
/// bound costs one row update, not a count of the table. Nothing here is read by a fulfillment.
/// `verified` is an integer 0 or 1 on every engine.
enum AttemptsTable {
    /// The tables as they stand, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "attempts",
        columns: [
            SQLColumn("sequence", .sequence(neverReused: false)), SQLColumn("store", .key), SQLColumn("delivery_id", .key),
            SQLColumn("purchase_id", .key, isNullable: true), SQLColumn("order_id", .key, isNullable: true),
            SQLColumn("store_product_id", .key), SQLColumn("player_id", .key), SQLColumn("outcome", .text),
            SQLColumn("code", .text), SQLColumn("reason", .text), SQLColumn("at_ms", .integer), SQLColumn("entry_point", .text),
            SQLColumn("verified", .integer, check: "verified IN (0, 1)"),
            SQLColumn("repeat_count", .integer, check: "repeat_count >= 1"), SQLColumn("last_at_ms", .integer),
        ],
        indexes: [
            SQLIndex("attempts_by_budget", on: ["verified", "sequence"]),
            SQLIndex("attempts_by_player", on: ["player_id", "sequence"]),
            SQLIndex("attempts_by_delivery", on: ["delivery_id"]),
            SQLIndex("attempts_by_purchase", on: ["purchase_id"], where: "purchase_id IS NOT NULL"),
            SQLIndex("attempts_by_order", on: ["order_id"], where: "order_id IS NOT NULL"),
        ])
    static let countsSchema = SQLTable(
        "attempt_counts",
        columns: [
            SQLColumn("verified", .integer, check: "verified IN (0, 1)"), SQLColumn("row_count", .integer, check: "row_count >= 0"),
        ],
        primaryKey: ["verified"])

    static let columns = """
        sequence, store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code, reason,
        at_ms, entry_point, verified, repeat_count, last_at_ms
        """
    static let insertSQL = """
        INSERT INTO attempts (store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code,
            reason, at_ms, entry_point, verified, repeat_count, last_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
        """
    /// A budget without a row yet counts 0. On an engine with concurrent writers the row lock
    /// this takes orders the writers of one budget, so each sees the count the one before left.
    static let addToCountSQL = """
        INSERT INTO attempt_counts AS c (verified, row_count) VALUES (?2, ?1)
        ON CONFLICT (verified) DO UPDATE SET row_count = c.row_count + excluded.row_count RETURNING row_count
        """
    static let subtractFromCountSQL = "UPDATE attempt_counts SET row_count = row_count - ? WHERE verified = ?"
    static let countSQL = "SELECT row_count FROM attempt_counts WHERE verified = ?"
    /// The budget's oldest rows, at most the limit given.
    static let deleteOldestSQL = """
        DELETE FROM attempts WHERE sequence IN
            (SELECT sequence FROM attempts WHERE verified = ? ORDER BY sequence LIMIT ?)
        """
    /// Only among the budget's oldest rows, so that a journal with nothing expired costs a few
    /// index steps, not a walk of every row.
    static let deleteExpiredSQL = """
        DELETE FROM attempts WHERE sequence IN
            (SELECT sequence FROM (SELECT sequence, at_ms FROM attempts WHERE verified = ? ORDER BY sequence LIMIT ?)
             AS oldest WHERE at_ms < ?)
        """
    static let selectNewestOfDeliverySQL = "SELECT \(columns) FROM attempts WHERE delivery_id = ? ORDER BY sequence DESC LIMIT 1"
    static let countRepeatSQL = "UPDATE attempts SET repeat_count = repeat_count + 1, last_at_ms = ?, reason = ? WHERE sequence = ?"
    static let selectByPlayerSQL = "SELECT \(columns) FROM attempts WHERE player_id = ? ORDER BY sequence DESC LIMIT ?"
    static let selectMatchingSQL = """
        SELECT \(columns) FROM attempts WHERE delivery_id = ?1 OR purchase_id = ?1 OR order_id = ?1
        ORDER BY sequence DESC LIMIT ?2
        """

    static func row(_ row: SQLRow) throws(LedgerError) -> StoredAttemptRow {
        StoredAttemptRow(
            sequence: try row.int64(0), store: try row.text(1), deliveryID: try row.text(2),
            purchaseID: try row.optionalText(3), orderID: try row.optionalText(4), storeProductID: try row.text(5),
            playerID: try row.text(6), outcome: try row.text(7), code: try row.text(8), reason: try row.text(9),
            atMilliseconds: try row.int64(10), entryPoint: try row.text(11), verified: try row.int64(12) != 0,
            repeatCount: try row.int64(13), lastAtMilliseconds: try row.int64(14))
    }
}

extension LedgerReader {
    /// A player's attempts (submissions that granted nothing), newest first, at most `limit`.
    public func attempts(playerID: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit)
    }

    /// The attempts whose delivery, purchase or order ID is `id`, in any store, newest first,
    /// at most `limit`.
    public func attempts(matchingID id: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectMatchingSQL, [.text(id), .count(limit)], limit: limit)
    }

    /// How many attempts the journal holds in one budget (verified or not).
    public func attemptCount(verified: Bool) throws(LedgerError) -> Int {
        Int(try one(AttemptsTable.countSQL, [.integer(verified ? 1 : 0)]) { (row) throws(LedgerError) in try row.int64(0) } ?? 0)
    }

    fileprivate func attemptRows(_ statement: String, _ values: [SQLValue], limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try rows(statement, values, limit: limit) { (row) throws(LedgerError) in
            try AttemptsTable.row(row).record(corrupt: corrupt)
        }
    }
}

extension LedgerWriter {
    /// Appends an attempt to the journal and returns its sequence, then removes what
    /// `retention` no longer keeps: the oldest of the attempt's budget beyond its count (up to
    /// `AttemptRetention.expiredCountPerWriteMax` of them), and those of the budget's
    /// `expiredCountPerWriteMax` oldest that are older than the age. When the newest attempt of
    /// the same delivery ID `isRepeated(by:)` this one, it adds one to that row's
    /// `repeatCount`, sets its `lastAt` and reason, and returns that row's sequence instead.
    @discardableResult
    public func appendAttempt(_ record: AttemptRecord, retention: AttemptRetention) throws(LedgerError) -> Int64 {
        let newest = try attemptRows(AttemptsTable.selectNewestOfDeliverySQL, [.text(record.deliveryID)], limit: 1).first
        if let newest, newest.isRepeated(by: record) {
            try run(AttemptsTable.countRepeatSQL, [.milliseconds(record.at), .text(record.reason), .integer(newest.sequence)])
            return newest.sequence
        }
        let budget: SQLValue = .integer(record.isVerified ? 1 : 0)
        let sequence = try engine.insertReturningSequence(
            AttemptsTable.insertSQL,
            [
                .text(record.store.rawValue), .text(record.deliveryID), .text(record.purchaseID), .text(record.orderID),
                .text(record.storeProductID), .text(record.playerID), .text(record.outcome.rawValue), .text(record.code),
                .text(record.reason), .milliseconds(record.at), .text(record.entryPoint.rawValue), budget,
                .milliseconds(record.at),
            ], sequenceColumn: "sequence")
        let count = try one(AttemptsTable.addToCountSQL, [.integer(1), budget]) { (row) throws(LedgerError) in try row.int64(0) } ?? 0
        let excess = AttemptJournal.excess(count: count, retention: retention, verified: record.isVerified)
        var removed = 0
        if excess > 0 { removed += try run(AttemptsTable.deleteOldestSQL, [budget, .integer(excess)]) }
        removed += try run(
            AttemptsTable.deleteExpiredSQL,
            [
                budget, .count(AttemptRetention.expiredCountPerWriteMax),
                .milliseconds(AttemptJournal.expiryCutoff(record.at, retention: retention)),
            ])
        if removed > 0 { try run(AttemptsTable.subtractFromCountSQL, [.count(removed), budget]) }
        return sequence
    }
}
