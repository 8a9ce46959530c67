import Foundation
import FulfillmentLedger

/// `events`: the append-only event log. Triggers refuse UPDATE and DELETE, so history
/// cannot be rewritten through SQL either.
package enum EventsTable {
    static let createSQL = """
        CREATE TABLE events (
            sequence INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            player_id TEXT NOT NULL,
            store TEXT,
            transaction_id TEXT,
            at_ms INTEGER NOT NULL,
            detail TEXT NOT NULL
        );
        CREATE INDEX events_by_player ON events (player_id, sequence);
        CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
        CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
        """

    /// Added by migration 2: refunds read a transaction's history.
    static let createTransactionIndexSQL = """
        CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
        """

    /// Migration 6: the log rebuilt without `AUTOINCREMENT`, whose `sqlite_sequence` row was
    /// written on every append. The log is append-only, so its largest `sequence` is never
    /// deleted and a plain rowid never goes back: sequences still only grow. The index by
    /// transaction stays: a transaction's events may belong to several players (a reassigned
    /// purchase) and may come before its record (a refund awaiting its purchase).
    static let rebuildSQL = """
        CREATE TABLE events_v6 (
            sequence INTEGER PRIMARY KEY,
            kind TEXT NOT NULL,
            player_id TEXT NOT NULL,
            store TEXT,
            transaction_id TEXT,
            at_ms INTEGER NOT NULL,
            detail TEXT NOT NULL
        );
        INSERT INTO events_v6 (sequence, kind, player_id, store, transaction_id, at_ms, detail)
            SELECT sequence, kind, player_id, store, transaction_id, at_ms, detail FROM events ORDER BY sequence;
        DROP TABLE events;
        DELETE FROM sqlite_sequence WHERE name = 'events';
        ALTER TABLE events_v6 RENAME TO events;
        CREATE INDEX events_by_player ON events (player_id, sequence);
        CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
        CREATE TRIGGER events_append_only_update BEFORE UPDATE ON events
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
        CREATE TRIGGER events_append_only_delete BEFORE DELETE ON events
            BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
        """

    static let columns = "sequence, kind, player_id, store, transaction_id, at_ms, detail"
    /// A transaction's events after a sequence, oldest first, by `events_by_transaction`.
    static let byTransactionSQL = """
        SELECT \(columns) FROM events WHERE store = ?1 AND transaction_id = ?2 AND sequence > ?3
        ORDER BY sequence LIMIT ?4
        """
    /// The change feed after a sequence, by the primary key. One writer commits at a time, so
    /// sequences are assigned in commit order. Finish results are left out: their commits are
    /// not synced on their own, and a power loss could give a lost one's sequence to a later
    /// event; every change the feed returns was synced with everything before it.
    static let changesSQL = """
        SELECT \(columns) FROM events WHERE sequence > ?1 AND kind NOT IN ('\(LedgerEventKind.finishSucceeded.rawValue)', '\(LedgerEventKind.finishFailed.rawValue)')
        ORDER BY sequence LIMIT ?2
        """
    package static let insertSQL =
        "INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES (?, ?, ?, ?, ?, ?)"

    /// An event from a row of `columns`.
    static func decode(_ row: SQLiteRow) -> LedgerEvent {
        let key = row.optionalText(3).map { TransactionKey(store: PlatformStore(rawValue: $0), transactionID: row.text(4)) }
        return LedgerEvent(
            sequence: row.int64(0), kind: LedgerEventKind(rawValue: row.text(1)), playerID: row.text(2),
            transaction: key, at: Date(ledgerMilliseconds: row.int64(5)), detail: row.text(6))
    }
}

extension SQLiteLedgerSession {
    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                "SELECT \(EventsTable.columns) FROM events WHERE player_id = ? ORDER BY sequence DESC LIMIT ?"
            ).query([.text(playerID), .integer(Int64(limit))], rowCountMax: limit, EventsTable.decode)
        }
    }

    /// A transaction's events, oldest first.
    func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(EventsTable.byTransactionSQL).query(
                [.text(key.store.rawValue), .text(key.transactionID), .integer(0), .integer(Int64(limit))],
                rowCountMax: limit, EventsTable.decode)
        }
    }

    /// A player's events after `sequence`, oldest first: a page of the history.
    func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                "SELECT \(EventsTable.columns) FROM events WHERE player_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"
            ).query([.text(playerID), .integer(sequence), .integer(Int64(limit))], rowCountMax: limit, EventsTable.decode)
        }
    }

    /// A transaction's events after `sequence`, oldest first: a page of its history.
    func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(EventsTable.byTransactionSQL).query(
                [.text(key.store.rawValue), .text(key.transactionID), .integer(sequence), .integer(Int64(limit))],
                rowCountMax: limit, EventsTable.decode)
        }
    }

    /// The change feed: changes after `sequence`, in commit order.
    func changes(afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(EventsTable.changesSQL).query(
                [.integer(sequence), .integer(Int64(limit))], rowCountMax: limit, EventsTable.decode)
        }
    }

    @discardableResult
    func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(EventsTable.insertSQL).run([
                .text(event.kind.rawValue), .text(event.playerID), .text(event.transaction?.store.rawValue),
                .text(event.transaction?.transactionID), .integer(event.at.ledgerMilliseconds), .text(event.detail),
            ])
            return connection.lastInsertRowID
        }
    }
}
