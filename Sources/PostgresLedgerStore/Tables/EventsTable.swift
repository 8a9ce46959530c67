import Foundation
import FulfillmentLedger

/// `events`: the append-only event log. A trigger refuses UPDATE and DELETE, so history cannot
/// be rewritten through SQL either. Sequences come from an identity column: they only grow,
/// though concurrent transactions may commit them out of order.
enum EventsTable {
    static let createSQL = """
        CREATE TABLE events (
            sequence bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
            kind text NOT NULL,
            player_id text COLLATE "C" NOT NULL,
            store text COLLATE "C",
            transaction_id text COLLATE "C",
            at_ms bigint NOT NULL,
            detail text NOT NULL
        );
        CREATE INDEX events_by_player ON events (player_id, sequence);
        CREATE INDEX events_by_transaction ON events (store, transaction_id, sequence);
        CREATE FUNCTION events_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN RAISE EXCEPTION 'the event log is append-only'; END $$;
        CREATE TRIGGER events_append_only BEFORE UPDATE OR DELETE ON events
            FOR EACH ROW EXECUTE FUNCTION events_append_only();
        """

    static let columns = "sequence, kind, player_id, store, transaction_id, at_ms, detail"
    static let newestByPlayerSQL = "SELECT \(columns) FROM events WHERE player_id = $1 ORDER BY sequence DESC LIMIT $2"
    static let byPlayerAfterSQL =
        "SELECT \(columns) FROM events WHERE player_id = $1 AND sequence > $2 ORDER BY sequence LIMIT $3"
    static let byTransactionAfterSQL = """
        SELECT \(columns) FROM events WHERE store = $1 AND transaction_id = $2 AND sequence > $3
        ORDER BY sequence LIMIT $4
        """
    static let insertSQL = """
        INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES ($1, $2, $3, $4, $5, $6)
        RETURNING sequence
        """

    static func decode(_ row: PostgresRow) throws(PostgresError) -> LedgerEvent {
        let key = try row.optionalText(3).map { (store) throws(PostgresError) in
            TransactionKey(store: PlatformStore(rawValue: store), transactionID: try row.text(4))
        }
        return LedgerEvent(
            sequence: try row.int64(0), kind: LedgerEventKind(rawValue: try row.text(1)), playerID: try row.text(2),
            transaction: key, at: Date(ledgerMilliseconds: try row.int64(5)), detail: try row.text(6))
    }
}

extension PostgresLedgerSession {
    func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(EventsTable.newestByPlayerSQL, [.text(playerID), .count(limit)], limit: limit, EventsTable.decode)
    }

    func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try events(transaction: key, afterSequence: 0, limit: limit)
    }

    func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(
            EventsTable.byPlayerAfterSQL, [.text(playerID), .int64(sequence), .count(limit)], limit: limit, EventsTable.decode)
    }

    func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(
            EventsTable.byTransactionAfterSQL,
            [.text(key.store.rawValue), .text(key.transactionID), .int64(sequence), .count(limit)], limit: limit,
            EventsTable.decode)
    }

    func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        let sequence = try one(
            EventsTable.insertSQL,
            [
                .text(event.kind.rawValue), .text(event.playerID), .text(event.transaction?.store.rawValue),
                .text(event.transaction?.transactionID), .milliseconds(event.at), .text(event.detail),
            ]
        ) { (row) throws(PostgresError) in try row.int64(0) }
        guard let sequence else { throw corrupt("the sequence of a new event") }
        return sequence
    }
}
