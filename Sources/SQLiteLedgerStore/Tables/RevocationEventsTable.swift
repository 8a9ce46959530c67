import Foundation
import FulfillmentLedger

/// `revocation_events`: every refund, revoke and reversal received, keyed by the store's
/// event ID so each applies once. No foreign key to the ledger: a store may report a
/// refund before the purchase reaches the ledger, and the event waits for it.
package enum RevocationEventsTable {
    static let createSQL = """
        CREATE TABLE revocation_events (
            event_id TEXT PRIMARY KEY NOT NULL,
            store TEXT NOT NULL,
            transaction_id TEXT NOT NULL,
            kind TEXT NOT NULL,
            quantity INTEGER,
            event_date_ms INTEGER NOT NULL,
            reason TEXT,
            disposition TEXT NOT NULL,
            effect TEXT NOT NULL,
            debt_created TEXT NOT NULL,
            received_at_ms INTEGER NOT NULL,
            reversed INTEGER NOT NULL CHECK (reversed IN (0, 1))
        ) WITHOUT ROWID;
        CREATE INDEX revocation_events_by_transaction
            ON revocation_events (store, transaction_id, event_date_ms);
        """

    /// Added by migration 5: the event as named (`original_transaction_id`) and the ledger
    /// key of the purchase it applies to (`purchase_id`), by which a purchase finds its events.
    static let addPurchaseSQL = """
        ALTER TABLE revocation_events ADD COLUMN original_transaction_id TEXT;
        ALTER TABLE revocation_events ADD COLUMN purchase_id TEXT;
        ALTER TABLE revocation_events ADD COLUMN quantity_is_cumulative INTEGER;
        ALTER TABLE revocation_events ADD COLUMN absorbed_change TEXT;
        UPDATE revocation_events SET purchase_id = transaction_id;
        DROP INDEX revocation_events_by_transaction;
        CREATE INDEX revocation_events_by_purchase ON revocation_events (store, purchase_id, event_date_ms);
        """

    static let columns = """
        event_id, store, transaction_id, kind, quantity, event_date_ms, reason, disposition, effect, debt_created,
        received_at_ms, reversed, original_transaction_id, purchase_id, quantity_is_cumulative,
        absorbed_change
        """

    static let selectOneSQL = "SELECT \(columns) FROM revocation_events WHERE event_id = ?"
    package static let selectByTransactionSQL = """
        SELECT \(columns) FROM revocation_events WHERE store = ? AND purchase_id = ?
        ORDER BY event_date_ms, received_at_ms, event_id LIMIT ?
        """
    static let insertSQL = "INSERT INTO revocation_events (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
    static let updateSQL = """
        UPDATE revocation_events SET disposition = ?, effect = ?, debt_created = ?, reversed = ?, absorbed_change = ?
        WHERE event_id = ?
        """
}

extension SQLiteLedgerSession {
    /// A stored event by its ID.
    func revocationEvent(id: String) throws(LedgerError) -> RevocationRecord? {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(RevocationEventsTable.selectOneSQL)
                .query([.text(id)], rowCountMax: 1, Self.revocationRow)
        }
        return try rows.first.map { row throws(LedgerError) in try decodeRevocation(row) }
    }

    /// A transaction's events by store date, then arrival, then event ID (the index covers the first).
    func revocationEvents(for key: TransactionKey, limit: Int) throws(LedgerError) -> [RevocationRecord] {
        let rows = try sql { () throws(SQLiteError) in
            try connection.statement(RevocationEventsTable.selectByTransactionSQL).query(
                [.text(key.store.rawValue), .text(key.transactionID), .integer(Int64(limit))], rowCountMax: limit,
                Self.revocationRow)
        }
        var records: [RevocationRecord] = []
        for row in rows { records.append(try decodeRevocation(row)) }
        return records
    }

    /// Stores an event; a known event ID fails on the primary key.
    func insertRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        let effect = TransactionsTable.encodeGrants(record.effect)
        let debt = StoredForm.amountsText(record.debtCreated)
        let absorbed = record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)
        let event = record.event
        try sql { () throws(SQLiteError) in
            try connection.statement(RevocationEventsTable.insertSQL).run([
                .text(event.eventID), .text(event.store.rawValue), .text(event.transactionID),
                .text(event.kind.rawValue), .integer(event.quantity.map(Int64.init)),
                .integer(event.eventDate.ledgerMilliseconds), .text(event.reason),
                .text(record.disposition.rawValue), .text(effect), .text(debt),
                .integer(record.receivedAt.ledgerMilliseconds), .integer(record.reversed ? 1 : 0),
                .text(event.originalTransactionID), .text(record.purchase.transactionID),
                .integer(event.quantityIsCumulative ? 1 : nil), .text(absorbed),
            ])
        }
    }

    /// Rewrites what an event did; the event as received is never rewritten.
    func updateRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        let effect = TransactionsTable.encodeGrants(record.effect)
        let debt = StoredForm.amountsText(record.debtCreated)
        let absorbed = record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)
        try sql { () throws(SQLiteError) in
            try connection.statement(RevocationEventsTable.updateSQL).run([
                .text(record.disposition.rawValue), .text(effect), .text(debt), .integer(record.reversed ? 1 : 0),
                .text(absorbed), .text(record.event.eventID),
            ])
        }
    }

    /// Copies the columns of `RevocationEventsTable.columns` out of the current row; decoded
    /// outside the SQLite closure so a bad value throws a `LedgerError`.
    private static func revocationRow(_ row: SQLiteRow) -> StoredRevocationRow {
        StoredRevocationRow(
            eventID: row.text(0), store: row.text(1), transactionID: row.text(2), kind: row.text(3),
            quantity: row.optionalInt64(4), eventDateMilliseconds: row.int64(5), reason: row.optionalText(6),
            disposition: row.text(7), effect: row.text(8), debt: row.text(9), receivedMilliseconds: row.int64(10),
            reversed: row.int64(11) != 0, originalTransactionID: row.optionalText(12), purchaseID: row.text(13),
            quantityIsCumulative: row.optionalInt64(14) == 1, absorbedChange: row.optionalText(15))
    }

    private func decodeRevocation(_ row: StoredRevocationRow) throws(LedgerError) -> RevocationRecord {
        try row.record(corrupt: corrupt)
    }
}
