import Foundation
import FulfillmentLedger

/// `attempts`: the attempts journal, one row per submission that granted nothing (rejected or
/// failed), for support. `attempt_counts` holds each budget's row count, so that keeping the
/// bound costs one row update, not a count of the table. Nothing here is read by a fulfillment.
enum AttemptsTable {
    /// Added by migration 3.
    static let createSQL = """
        CREATE TABLE attempts (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            store text COLLATE "C" NOT NULL,
            delivery_id text COLLATE "C" NOT NULL,
            purchase_id text COLLATE "C",
            order_id text COLLATE "C",
            store_product_id text COLLATE "C" NOT NULL,
            player_id text COLLATE "C" NOT NULL,
            outcome text NOT NULL,
            code text NOT NULL,
            reason text NOT NULL,
            at_ms bigint NOT NULL,
            entry_point text NOT NULL,
            verified bigint NOT NULL CHECK (verified IN (0, 1)),
            repeat_count bigint NOT NULL CHECK (repeat_count >= 1),
            last_at_ms bigint NOT NULL
        );
        CREATE INDEX attempts_by_budget ON attempts (verified, sequence);
        CREATE INDEX attempts_by_player ON attempts (player_id, sequence);
        CREATE INDEX attempts_by_delivery ON attempts (delivery_id);
        CREATE INDEX attempts_by_purchase ON attempts (purchase_id) WHERE purchase_id IS NOT NULL;
        CREATE INDEX attempts_by_order ON attempts (order_id) WHERE order_id IS NOT NULL;
        CREATE TABLE attempt_counts (
            verified bigint PRIMARY KEY CHECK (verified IN (0, 1)),
            row_count bigint NOT NULL CHECK (row_count >= 0)
        );
        """

    static let columns = """
        sequence, store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code, reason,
        at_ms, entry_point, verified, repeat_count, last_at_ms
        """
    static let insertSQL = """
        INSERT INTO attempts (store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code,
            reason, at_ms, entry_point, verified, repeat_count, last_at_ms)
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, 1, $13) RETURNING sequence
        """
    /// A budget without a row yet counts 0. The row lock this takes orders concurrent writers of one budget, so each sees the count
    /// the one before it left.
    static let addToCountSQL = """
        INSERT INTO attempt_counts (verified, row_count) VALUES ($2, $1)
        ON CONFLICT (verified) DO UPDATE SET row_count = attempt_counts.row_count + excluded.row_count RETURNING row_count
        """
    static let subtractFromCountSQL = "UPDATE attempt_counts SET row_count = row_count - $1 WHERE verified = $2"
    static let countSQL = "SELECT row_count FROM attempt_counts WHERE verified = $1"
    static let deleteOldestSQL = """
        DELETE FROM attempts WHERE sequence IN
            (SELECT sequence FROM attempts WHERE verified = $1 ORDER BY sequence LIMIT $2)
        """
    /// Only among the budget's oldest rows, so that a journal with nothing expired costs a few
    /// index steps, not a walk of every row.
    static let deleteExpiredSQL = """
        DELETE FROM attempts WHERE sequence IN
            (SELECT sequence FROM (SELECT sequence, at_ms FROM attempts WHERE verified = $1 ORDER BY sequence LIMIT $2)
             AS oldest WHERE at_ms < $3)
        """
    static let selectNewestOfDeliverySQL = "SELECT \(columns) FROM attempts WHERE delivery_id = $1 ORDER BY sequence DESC LIMIT 1"
    static let countRepeatSQL = "UPDATE attempts SET repeat_count = repeat_count + 1, last_at_ms = $1, reason = $2 WHERE sequence = $3"
    static let selectByPlayerSQL = "SELECT \(columns) FROM attempts WHERE player_id = $1 ORDER BY sequence DESC LIMIT $2"
    static let selectMatchingSQL = """
        SELECT \(columns) FROM attempts WHERE delivery_id = $1 OR purchase_id = $1 OR order_id = $1
        ORDER BY sequence DESC LIMIT $2
        """
}

extension PostgresLedgerSession {
    func attempts(playerID: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectByPlayerSQL, [.text(playerID), .count(limit)], limit: limit)
    }

    func attempts(matchingID id: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectMatchingSQL, [.text(id), .count(limit)], limit: limit)
    }

    func attemptCount(verified: Bool) throws(LedgerError) -> Int {
        Int(try one(AttemptsTable.countSQL, [.int64(verified ? 1 : 0)]) { (row) throws(PostgresError) in try row.int64(0) } ?? 0)
    }

    func appendAttempt(_ record: AttemptRecord, retention: AttemptRetention) throws(LedgerError) -> Int64 {
        let newest = try attemptRows(AttemptsTable.selectNewestOfDeliverySQL, [.text(record.deliveryID)], limit: 1).first
        if let newest, newest.isRepeated(by: record) {
            try run(AttemptsTable.countRepeatSQL, [.milliseconds(record.at), .text(record.reason), .int64(newest.sequence)])
            return newest.sequence
        }
        let budget: PostgresValue = .int64(record.isVerified ? 1 : 0)
        let inserted = try one(
            AttemptsTable.insertSQL,
            [
                .text(record.store.rawValue), .text(record.deliveryID), .text(record.purchaseID), .text(record.orderID),
                .text(record.storeProductID), .text(record.playerID), .text(record.outcome.rawValue), .text(record.code),
                .text(record.reason), .milliseconds(record.at), .text(record.entryPoint.rawValue), budget,
                .milliseconds(record.at),
            ]
        ) { (row) throws(PostgresError) in try row.int64(0) }
        guard let sequence = inserted else { throw corrupt("attempt sequence") }
        let count = try one(AttemptsTable.addToCountSQL, [.int64(1), budget]) { (row) throws(PostgresError) in try row.int64(0) } ?? 0
        let excess = AttemptJournal.excess(count: count, retention: retention, verified: record.isVerified)
        var removed: Int64 = 0
        if excess > 0 { removed += try run(AttemptsTable.deleteOldestSQL, [budget, .int64(excess)]) }
        removed += try run(
            AttemptsTable.deleteExpiredSQL,
            [
                budget, .count(AttemptRetention.expiredCountPerWriteMax),
                .milliseconds(AttemptJournal.expiryCutoff(record.at, retention: retention)),
            ])
        if removed > 0 { try run(AttemptsTable.subtractFromCountSQL, [.int64(removed), budget]) }
        return sequence
    }

    private func attemptRows(_ statement: String, _ values: [PostgresValue], limit: Int) throws(LedgerError) -> [AttemptRecord] {
        let rows = try rows(statement, values, limit: limit) { (row) throws(PostgresError) in
            StoredAttemptRow(
                sequence: try row.int64(0), store: try row.text(1), deliveryID: try row.text(2),
                purchaseID: try row.optionalText(3), orderID: try row.optionalText(4), storeProductID: try row.text(5),
                playerID: try row.text(6), outcome: try row.text(7), code: try row.text(8), reason: try row.text(9),
                atMilliseconds: try row.int64(10), entryPoint: try row.text(11), verified: try row.int64(12) != 0,
                repeatCount: try row.int64(13), lastAtMilliseconds: try row.int64(14))
        }
        var records: [AttemptRecord] = []
        for row in rows { records.append(try row.record(corrupt: corrupt)) }
        return records
    }
}
