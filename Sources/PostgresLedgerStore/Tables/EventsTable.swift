import Foundation
import FulfillmentLedger

/// `events`: the append-only event log. A trigger refuses UPDATE and DELETE, so history cannot
/// be rewritten through SQL either. Sequences come from an identity column: they only grow.
///
/// The change feed needs the sequences of player changes in commit order, which an identity
/// column alone does not give: two transactions may take 10 and 11 and commit 11 first, and a
/// reader that saw 11 would never go back for 10. So a transaction takes the feed lock, a
/// transaction-level advisory lock, before it appends its first change, and holds it until it
/// ends: sequences of changes are taken by one transaction at a time, and each is visible
/// before the next transaction can take one. Finish results (`isPlayerChange` false) are not
/// in the feed and take no lock.
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
    /// The change feed after a sequence, by the primary key.
    static let changesSQL = """
        SELECT \(columns) FROM events
        WHERE sequence > $1 AND kind NOT IN ('\(LedgerEventKind.finishSucceeded.rawValue)', '\(LedgerEventKind.finishFailed.rawValue)')
        ORDER BY sequence LIMIT $2
        """
    /// The feed lock: "FLDGFEED". Held until the transaction ends, released on rollback too.
    static let feedLockKey: Int64 = 0x464C_4447_4645_4544
    static let feedLockSQL = "SELECT pg_advisory_xact_lock(\(feedLockKey))"
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

    /// The change feed: changes after `sequence`, in commit order.
    func changes(afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(EventsTable.changesSQL, [.int64(sequence), .count(limit)], limit: limit, EventsTable.decode)
    }

    func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        if event.kind.isPlayerChange, !holdsFeedLock {
            _ = try one(EventsTable.feedLockSQL, []) { (_) throws(PostgresError) in () }
            holdsFeedLock = true
        }
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
