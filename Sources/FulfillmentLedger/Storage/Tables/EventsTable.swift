import Foundation

/// `events`: the append-only event log. The schema refuses UPDATE and DELETE (a trigger), so
/// history cannot be rewritten through SQL either. Sequences only grow.
///
/// The change feed needs the sequences of player changes in commit order. Where writers commit
/// one at a time (SQLite) the sequence order is the commit order. Where transactions run
/// concurrently (PostgreSQL) two may take 10 and 11 and commit 11 first, and a reader that saw
/// 11 would never go back for 10; so a transaction takes the dialect's feed lock before it
/// appends its first change and holds it until it ends. Finish results (`isPlayerChange`
/// false) are not in the feed and take no lock: their commits are not synced on their own.
package enum EventsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`). Its largest
    /// sequence is never deleted, so even a reusing sequence only grows.
    static let schema = SQLTable(
        "events",
        columns: [
            SQLColumn("sequence", .sequence(neverReused: false)), SQLColumn("kind", .text), SQLColumn("player_id", .key),
            SQLColumn("store", .key, isNullable: true), SQLColumn("transaction_id", .key, isNullable: true),
            SQLColumn("at_ms", .integer), SQLColumn("detail", .text),
        ],
        indexes: [
            SQLIndex("events_by_player", on: ["player_id", "sequence"]),
            SQLIndex("events_by_transaction", on: ["store", "transaction_id", "sequence"]),
        ],
        appendOnlyMessage: "the event log is append-only")

    static let columns = "sequence, kind, player_id, store, transaction_id, at_ms, detail"
    static let newestByPlayerSQL = "SELECT \(columns) FROM events WHERE player_id = ? ORDER BY sequence DESC LIMIT ?"
    static let byPlayerAfterSQL =
        "SELECT \(columns) FROM events WHERE player_id = ? AND sequence > ? ORDER BY sequence LIMIT ?"
    /// A transaction's events after a sequence, oldest first, by `events_by_transaction`.
    package static let byTransactionSQL = """
        SELECT \(columns) FROM events WHERE store = ? AND transaction_id = ? AND sequence > ?
        ORDER BY sequence LIMIT ?
        """
    /// The change feed after a sequence, by the primary key.
    static let changesSQL = """
        SELECT \(columns) FROM events
        WHERE sequence > ? AND kind NOT IN ('\(LedgerEventKind.finishSucceeded.rawValue)', '\(LedgerEventKind.finishFailed.rawValue)')
        ORDER BY sequence LIMIT ?
        """
    /// Its sequence comes back through `SQLSession.insertReturningSequence`.
    package static let insertSQL = "INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES (?, ?, ?, ?, ?, ?)"

    static func decode(_ row: SQLRow) throws(LedgerError) -> LedgerEvent {
        let key = try row.optionalText(3).map { (store) throws(LedgerError) in
            TransactionKey(store: PlatformStore(rawValue: store), transactionID: try row.text(4))
        }
        return LedgerEvent(
            sequence: try row.int64(0), kind: LedgerEventKind(rawValue: try row.text(1)), playerID: try row.text(2),
            transaction: key, at: Date(ledgerMilliseconds: try row.int64(5)), detail: try row.text(6))
    }
}

extension LedgerReader {
    /// A player's events, newest first, at most `limit`.
    public func events(playerID: String, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(EventsTable.newestByPlayerSQL, [.text(playerID), .count(limit)], limit: limit, EventsTable.decode)
    }

    /// A transaction's events, oldest first, at most `limit`.
    public func events(transaction key: TransactionKey, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try events(transaction: key, afterSequence: 0, limit: limit)
    }

    /// A player's events with a sequence above `sequence`, oldest first, at most `limit`: one page
    /// of the history, the next page starting after the last sequence returned.
    public func events(playerID: String, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(
            EventsTable.byPlayerAfterSQL, [.text(playerID), .integer(sequence), .count(limit)], limit: limit, EventsTable.decode)
    }

    /// A transaction's events with a sequence above `sequence`, oldest first, at most `limit`.
    public func events(transaction key: TransactionKey, afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(
            EventsTable.byTransactionSQL,
            [.text(key.store.rawValue), .text(key.transactionID), .integer(sequence), .count(limit)], limit: limit,
            EventsTable.decode)
    }

    /// The change feed: events whose kind `isPlayerChange`, with a sequence above `sequence`,
    /// in sequence order, at most `limit`. A store assigns the sequences of such events in
    /// commit order, so a reader that saves the last sequence it read and asks again after it
    /// never misses a committed change and never sees one out of order.
    public func changes(afterSequence sequence: Int64, limit: Int) throws(LedgerError) -> [LedgerEvent] {
        try rows(EventsTable.changesSQL, [.integer(sequence), .count(limit)], limit: limit, EventsTable.decode)
    }
}

extension LedgerWriter {
    /// Appends to the event log and returns the entry's sequence number.
    @discardableResult
    public func appendEvent(_ event: LedgerEvent) throws(LedgerError) -> Int64 {
        if event.kind.isPlayerChange, !holdsFeedLock, let lock = dialect.changeFeedLockSQL {
            _ = try engine.query(lock, [], rowCountMax: 1)
            holdsFeedLock = true
        }
        return try engine.insertReturningSequence(
            EventsTable.insertSQL,
            [
                .text(event.kind.rawValue), .text(event.playerID), .text(event.transaction?.store.rawValue),
                .text(event.transaction?.transactionID), .milliseconds(event.at), .text(event.detail),
            ], sequenceColumn: "sequence")
    }
}
