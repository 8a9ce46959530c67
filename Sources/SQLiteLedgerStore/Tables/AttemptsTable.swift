import Foundation
import FulfillmentLedger

/// `attempts`: the attempts journal, one row per submission that granted nothing (rejected or
/// failed), for support. `attempt_counts` holds each budget's row count (verified 1,
/// unverified 0), so that keeping the bound costs one row read, not a count of the table.
/// Nothing here is read by a fulfillment.
enum AttemptsTable {
    /// Added by migration 8.
    static let createSQL = """
        CREATE TABLE attempts (
            sequence INTEGER PRIMARY KEY,
            store TEXT NOT NULL,
            delivery_id TEXT NOT NULL,
            purchase_id TEXT,
            order_id TEXT,
            store_product_id TEXT NOT NULL,
            player_id TEXT NOT NULL,
            outcome TEXT NOT NULL,
            code TEXT NOT NULL,
            reason TEXT NOT NULL,
            at_ms INTEGER NOT NULL,
            entry_point TEXT NOT NULL,
            verified INTEGER NOT NULL CHECK (verified IN (0, 1)),
            repeat_count INTEGER NOT NULL CHECK (repeat_count >= 1),
            last_at_ms INTEGER NOT NULL
        );
        CREATE INDEX attempts_by_budget ON attempts (verified, sequence);
        CREATE INDEX attempts_by_player ON attempts (player_id, sequence);
        CREATE INDEX attempts_by_delivery ON attempts (delivery_id);
        CREATE INDEX attempts_by_purchase ON attempts (purchase_id) WHERE purchase_id IS NOT NULL;
        CREATE INDEX attempts_by_order ON attempts (order_id) WHERE order_id IS NOT NULL;
        CREATE TABLE attempt_counts (
            verified INTEGER PRIMARY KEY CHECK (verified IN (0, 1)),
            row_count INTEGER NOT NULL CHECK (row_count >= 0)
        ) WITHOUT ROWID;
        """

    static let columns = """
        sequence, store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code, reason,
        at_ms, entry_point, verified, repeat_count, last_at_ms
        """
    static let insertSQL = """
        INSERT INTO attempts (store, delivery_id, purchase_id, order_id, store_product_id, player_id, outcome, code,
            reason, at_ms, entry_point, verified, repeat_count, last_at_ms)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
        """
    /// A budget without a row yet counts 0.
    static let addToCountSQL = """
        INSERT INTO attempt_counts (verified, row_count) VALUES (?2, ?1)
        ON CONFLICT (verified) DO UPDATE SET row_count = row_count + excluded.row_count RETURNING row_count
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
             WHERE at_ms < ?)
        """
    static let selectNewestOfDeliverySQL = "SELECT \(columns) FROM attempts WHERE delivery_id = ? ORDER BY sequence DESC LIMIT 1"
    static let countRepeatSQL = "UPDATE attempts SET repeat_count = repeat_count + 1, last_at_ms = ?, reason = ? WHERE sequence = ?"
    static let selectByPlayerSQL = "SELECT \(columns) FROM attempts WHERE player_id = ? ORDER BY sequence DESC LIMIT ?"
    static let selectMatchingSQL = """
        SELECT \(columns) FROM attempts WHERE delivery_id = ?1 OR purchase_id = ?1 OR order_id = ?1
        ORDER BY sequence DESC LIMIT ?2
        """
}

extension SQLiteLedgerSession {
    func attempts(playerID: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectByPlayerSQL, [.text(playerID), .integer(Int64(limit))], limit: limit)
    }

    func attempts(matchingID id: String, limit: Int) throws(LedgerError) -> [AttemptRecord] {
        try attemptRows(AttemptsTable.selectMatchingSQL, [.text(id), .integer(Int64(limit))], limit: limit)
    }

    func attemptCount(verified: Bool) throws(LedgerError) -> Int {
        try sql { () throws(SQLiteError) in
            Int(try connection.statement(AttemptsTable.countSQL).queryOne([.integer(verified ? 1 : 0)]) { $0.int64(0) } ?? 0)
        }
    }

    func appendAttempt(_ record: AttemptRecord, retention: AttemptRetention) throws(LedgerError) -> Int64 {
        let newest = try attemptRows(AttemptsTable.selectNewestOfDeliverySQL, [.text(record.deliveryID)], limit: 1).first
        if let newest, newest.isRepeated(by: record) {
            try sql { () throws(SQLiteError) in
                try connection.statement(AttemptsTable.countRepeatSQL).run([
                    .integer(record.at.ledgerMilliseconds), .text(record.reason), .integer(newest.sequence),
                ])
            }
            return newest.sequence
        }
        let budget: SQLiteValue = .integer(record.isVerified ? 1 : 0)
        return try sql { () throws(SQLiteError) in
            try connection.statement(AttemptsTable.insertSQL).run([
                .text(record.store.rawValue), .text(record.deliveryID), .text(record.purchaseID), .text(record.orderID),
                .text(record.storeProductID), .text(record.playerID), .text(record.outcome.rawValue), .text(record.code),
                .text(record.reason), .integer(record.at.ledgerMilliseconds), .text(record.entryPoint.rawValue), budget,
                .integer(record.at.ledgerMilliseconds),
            ])
            let sequence = connection.lastInsertRowID
            let count = try connection.statement(AttemptsTable.addToCountSQL).queryOne([.integer(1), budget]) { $0.int64(0) } ?? 0
            let excess = AttemptJournal.excess(count: count, retention: retention, verified: record.isVerified)
            var removed = 0
            if excess > 0 {
                try connection.statement(AttemptsTable.deleteOldestSQL).run([budget, .integer(excess)])
                removed += connection.changes
            }
            try connection.statement(AttemptsTable.deleteExpiredSQL).run([
                budget, .integer(Int64(AttemptRetention.expiredCountPerWriteMax)),
                .integer(AttemptJournal.expiryCutoff(record.at, retention: retention).ledgerMilliseconds),
            ])
            removed += connection.changes
            if removed > 0 { try connection.statement(AttemptsTable.subtractFromCountSQL).run([.integer(Int64(removed)), budget]) }
            return sequence
        }
    }

    private func attemptRows(_ statement: String, _ values: [SQLiteValue], limit: Int) throws(LedgerError) -> [AttemptRecord] {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(statement).query(values, rowCountMax: limit) { row in
                StoredAttemptRow(
                    sequence: row.int64(0), store: row.text(1), deliveryID: row.text(2), purchaseID: row.optionalText(3),
                    orderID: row.optionalText(4), storeProductID: row.text(5), playerID: row.text(6),
                    outcome: row.text(7), code: row.text(8), reason: row.text(9), atMilliseconds: row.int64(10),
                    entryPoint: row.text(11), verified: row.int64(12) != 0, repeatCount: row.int64(13),
                    lastAtMilliseconds: row.int64(14))
            }
        }
        var records: [AttemptRecord] = []
        for row in rows { records.append(try row.record(corrupt: corrupt)) }
        return records
    }
}
