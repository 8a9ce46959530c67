import Foundation
import FulfillmentLedger

/// `events`: the append-only event log. Triggers refuse UPDATE and DELETE, so history
/// cannot be rewritten through SQL either.
enum EventsTable {
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
}

extension SQLiteLedgerSession {
    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT sequence, kind, player_id, store, transaction_id, at_ms, detail
                FROM events WHERE player_id = ? ORDER BY sequence DESC LIMIT ?
                """
            ).query([.text(playerID), .integer(Int64(limit))], rowCountMax: limit) { row in
                let key = row.optionalText(3).map {
                    TransactionKey(store: PlatformStore(rawValue: $0), transactionID: row.text(4))
                }
                return LedgerEvent(
                    sequence: row.int64(0), kind: LedgerEventKind(rawValue: row.text(1)), playerID: row.text(2),
                    transaction: key, at: Date(ledgerMilliseconds: row.int64(5)), detail: row.text(6))
            }
        }
    }

    @discardableResult
    func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                "INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES (?, ?, ?, ?, ?, ?)"
            ).run([
                .text(event.kind.rawValue), .text(event.playerID), .text(event.transaction?.store.rawValue),
                .text(event.transaction?.transactionID), .integer(event.at.ledgerMilliseconds), .text(event.detail),
            ])
            return connection.lastInsertRowID
        }
    }
}
