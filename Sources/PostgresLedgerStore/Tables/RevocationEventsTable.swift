import Foundation
import FulfillmentLedger

/// `revocation_events`: every refund, revoke and reversal received, keyed by the store's event
/// ID so each applies once. No foreign key to the ledger: a store may report a refund before the
/// purchase reaches the ledger, and the event waits for it.
enum RevocationEventsTable {
    static let createSQL = """
        CREATE TABLE revocation_events (
            event_id text COLLATE "C" PRIMARY KEY,
            store text COLLATE "C" NOT NULL,
            transaction_id text COLLATE "C" NOT NULL,
            kind text NOT NULL,
            quantity bigint,
            event_date_ms bigint NOT NULL,
            reason text,
            disposition text NOT NULL,
            effect text NOT NULL,
            debt_created text NOT NULL,
            received_at_ms bigint NOT NULL,
            reversed boolean NOT NULL,
            original_transaction_id text COLLATE "C",
            purchase_id text COLLATE "C" NOT NULL,
            quantity_is_cumulative boolean,
            absorbed_change text
        );
        CREATE INDEX revocation_events_by_purchase ON revocation_events (store, purchase_id, event_date_ms);
        """

    static let columns = """
        event_id, store, transaction_id, kind, quantity, event_date_ms, reason, disposition, effect, debt_created,
        received_at_ms, reversed, original_transaction_id, purchase_id, quantity_is_cumulative, absorbed_change
        """
    static let selectOneSQL = "SELECT \(columns) FROM revocation_events WHERE event_id = $1"
    static let selectByPurchaseSQL = """
        SELECT \(columns) FROM revocation_events WHERE store = $1 AND purchase_id = $2
        ORDER BY event_date_ms, received_at_ms, event_id LIMIT $3
        """
    static let insertSQL = """
        INSERT INTO revocation_events (\(columns))
        VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
        """
    static let updateSQL = """
        UPDATE revocation_events SET disposition = $1, effect = $2, debt_created = $3, reversed = $4, absorbed_change = $5
        WHERE event_id = $6
        """

    /// A row of `columns` as read, decoded outside the PostgreSQL closure so a bad value throws a `LedgerError`.
    static func row(_ row: PostgresRow) throws(PostgresError) -> StoredRevocationRow {
        StoredRevocationRow(
            eventID: try row.text(0), store: try row.text(1), transactionID: try row.text(2), kind: try row.text(3),
            quantity: try row.optionalInt64(4), eventDateMilliseconds: try row.int64(5),
            reason: try row.optionalText(6), disposition: try row.text(7), effect: try row.text(8),
            debt: try row.text(9), receivedMilliseconds: try row.int64(10), reversed: try row.bool(11),
            originalTransactionID: try row.optionalText(12), purchaseID: try row.text(13),
            quantityIsCumulative: try row.optionalBool(14) == true, absorbedChange: try row.optionalText(15))
    }
}

extension PostgresLedgerSession {
    func revocationEvent(id: String) throws(LedgerError) -> RevocationRecord? {
        let row = try one(RevocationEventsTable.selectOneSQL, [.text(id)]) { (row) throws(PostgresError) in
            try RevocationEventsTable.row(row)
        }
        return try row.map { (row) throws(LedgerError) in try decodeRevocation(row) }
    }

    func revocationEvents(for key: TransactionKey, limit: Int) throws(LedgerError) -> [RevocationRecord] {
        let found = try rows(
            RevocationEventsTable.selectByPurchaseSQL, [.text(key.store.rawValue), .text(key.transactionID), .count(limit)],
            limit: limit
        ) { (row) throws(PostgresError) in try RevocationEventsTable.row(row) }
        var records: [RevocationRecord] = []
        for row in found { records.append(try decodeRevocation(row)) }
        return records
    }

    func insertRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        let event = record.event
        try run(
            RevocationEventsTable.insertSQL,
            [
                .text(event.eventID), .text(event.store.rawValue), .text(event.transactionID), .text(event.kind.rawValue),
                .int64(event.quantity.map(Int64.init)), .milliseconds(event.eventDate), .text(event.reason),
                .text(record.disposition.rawValue), .text(StoredForm.grantsText(record.effect)),
                .text(StoredForm.amountsText(record.debtCreated)), .milliseconds(record.receivedAt), .bool(record.reversed),
                .text(event.originalTransactionID), .text(record.purchase.transactionID),
                .bool(event.quantityIsCumulative ? true : nil),
                .text(record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)),
            ])
    }

    func updateRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        try run(
            RevocationEventsTable.updateSQL,
            [
                .text(record.disposition.rawValue), .text(StoredForm.grantsText(record.effect)),
                .text(StoredForm.amountsText(record.debtCreated)), .bool(record.reversed),
                .text(record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)),
                .text(record.event.eventID),
            ])
    }

    private func decodeRevocation(_ row: StoredRevocationRow) throws(LedgerError) -> RevocationRecord {
        try row.record(corrupt: corrupt)
    }
}
