import Foundation

/// `revocation_events`: every refund, revoke and reversal received, keyed by the store's event
/// ID so each applies once; `purchase_id` is the ledger key of the purchase it applies to, by
/// which a purchase finds its events. No foreign key to the ledger: a store may report a refund
/// before the purchase reaches the ledger, and the event waits for it.
package enum RevocationEventsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "revocation_events",
        columns: [
            SQLColumn("event_id", .key), SQLColumn("store", .key), SQLColumn("transaction_id", .key), SQLColumn("kind", .text),
            SQLColumn("quantity", .integer, isNullable: true), SQLColumn("event_date_ms", .integer),
            SQLColumn("reason", .text, isNullable: true), SQLColumn("disposition", .text), SQLColumn("effect", .text),
            SQLColumn("debt_created", .text), SQLColumn("received_at_ms", .integer), SQLColumn("reversed", .boolean),
            SQLColumn("original_transaction_id", .key, isNullable: true), SQLColumn("purchase_id", .key),
            SQLColumn("quantity_is_cumulative", .boolean, isNullable: true), SQLColumn("absorbed_change", .text, isNullable: true),
        ],
        primaryKey: ["event_id"],
        indexes: [SQLIndex("revocation_events_by_purchase", on: ["store", "purchase_id", "event_date_ms"])])

    static let columns = """
        event_id, store, transaction_id, kind, quantity, event_date_ms, reason, disposition, effect, debt_created,
        received_at_ms, reversed, original_transaction_id, purchase_id, quantity_is_cumulative, absorbed_change
        """
    static let selectOneSQL = "SELECT \(columns) FROM revocation_events WHERE event_id = ?"
    /// The doctor's count of one store's events whose reason ends with a text (an adapter's own
    /// reason format), at or after a time. A scan of the table: run by an operator, never by
    /// the pipeline.
    package static let countByReasonSuffixSQL = """
        SELECT COUNT(*), MAX(event_date_ms) FROM revocation_events
        WHERE store = ? AND reason LIKE ? AND event_date_ms >= ?
        """

    package static let selectByPurchaseSQL = """
        SELECT \(columns) FROM revocation_events WHERE store = ? AND purchase_id = ?
        ORDER BY event_date_ms, received_at_ms, event_id LIMIT ?
        """
    static let insertSQL = """
        INSERT INTO revocation_events (\(columns))
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
        """
    static let updateSQL = """
        UPDATE revocation_events SET disposition = ?, effect = ?, debt_created = ?, reversed = ?, absorbed_change = ?
        WHERE event_id = ?
        """

    /// A row of `columns` as read.
    static func row(_ row: SQLRow) throws(LedgerError) -> StoredRevocationRow {
        StoredRevocationRow(
            eventID: try row.text(0), store: try row.text(1), transactionID: try row.text(2), kind: try row.text(3),
            quantity: try row.optionalInt64(4), eventDateMilliseconds: try row.int64(5),
            reason: try row.optionalText(6), disposition: try row.text(7), effect: try row.text(8),
            debt: try row.text(9), receivedMilliseconds: try row.int64(10), reversed: try row.bool(11),
            originalTransactionID: try row.optionalText(12), purchaseID: try row.text(13),
            quantityIsCumulative: try row.optionalBool(14) == true, absorbedChange: try row.optionalText(15))
    }
}

extension LedgerReader {
    /// How many of `store`'s revocation events dated at or after `since` have a reason ending in
    /// `reasonSuffix` (no `%` or `_` in it), and the latest one's date, for a doctor's report.
    package func revocationEventCount(store: PlatformStore, reasonSuffix: String, since: Date) throws(LedgerError)
        -> (count: Int64, latest: Date?)
    {
        precondition(!reasonSuffix.contains("%") && !reasonSuffix.contains("_"), "the suffix is matched literally")
        let found = try one(
            RevocationEventsTable.countByReasonSuffixSQL,
            [.text(store.rawValue), .text("%" + reasonSuffix), .milliseconds(since)]
        ) { (row) throws(LedgerError) in (try row.int64(0), try row.optionalInt64(1)) }
        return (found?.0 ?? 0, found?.1.flatMap(Date.checkedLedgerMilliseconds))
    }

    /// A stored revocation event, if its ID was seen.
    public func revocationEvent(id: String) throws(LedgerError) -> RevocationRecord? {
        try one(RevocationEventsTable.selectOneSQL, [.text(id)]) { (row) throws(LedgerError) in
            try RevocationEventsTable.row(row).record(corrupt: corrupt)
        }
    }

    /// The revocation events of the purchase keyed `key` (`RevocationRecord.purchase`), by
    /// store event date then arrival, at most `limit`.
    public func revocationEvents(for key: TransactionKey, limit: Int) throws(LedgerError) -> [RevocationRecord] {
        try rows(
            RevocationEventsTable.selectByPurchaseSQL, [.text(key.store.rawValue), .text(key.transactionID), .count(limit)],
            limit: limit
        ) { (row) throws(LedgerError) in try RevocationEventsTable.row(row).record(corrupt: corrupt) }
    }
}

extension LedgerWriter {
    /// Stores a revocation event; its ID must be new.
    public func insertRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        let event = record.event
        try run(
            RevocationEventsTable.insertSQL,
            [
                .text(event.eventID), .text(event.store.rawValue), .text(event.transactionID), .text(event.kind.rawValue),
                .integer(event.quantity.map(Int64.init)), .milliseconds(event.eventDate), .text(event.reason),
                .text(record.disposition.rawValue), .text(StoredForm.grantsText(record.effect)),
                .text(StoredForm.amountsText(record.debtCreated)), .milliseconds(record.receivedAt), .bool(record.reversed),
                .text(event.originalTransactionID), .text(record.purchase.transactionID),
                .bool(event.quantityIsCumulative ? true : nil),
                .text(record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)),
            ])
    }

    /// Replaces the disposition, effect, debt and reversed flag of a stored revocation event.
    public func updateRevocationEvent(_ record: RevocationRecord) throws(LedgerError) {
        try run(
            RevocationEventsTable.updateSQL,
            [
                .text(record.disposition.rawValue), .text(StoredForm.grantsText(record.effect)),
                .text(StoredForm.amountsText(record.debtCreated)), .bool(record.reversed),
                .text(record.absorbedChange.isEmpty ? nil : StoredForm.amountsText(record.absorbedChange)),
                .text(record.event.eventID),
            ])
    }
}
