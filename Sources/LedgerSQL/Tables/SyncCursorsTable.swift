import FulfillmentLedger

/// `sync_cursors`: named positions of periodic store syncs, such as the voided-purchases
/// watermark, so a sync resumes where it stopped.
enum SyncCursorsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "sync_cursors", columns: [SQLColumn("name", .key), SQLColumn("value", .text)], primaryKey: ["name"])

    static let selectSQL = "SELECT value FROM sync_cursors WHERE name = ?"
    static let upsertSQL = """
        INSERT INTO sync_cursors (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value
        """
}

extension SQLLedgerSession {
    /// `LedgerReader.syncCursor` on this table.
    public func syncCursor(name: String) throws(LedgerError) -> String? {
        try one(SyncCursorsTable.selectSQL, [.text(name)]) { (row) throws(LedgerError) in try row.text(0) }
    }

    /// `LedgerWriter.setSyncCursor` on this table.
    public func setSyncCursor(name: String, value: String) throws(LedgerError) {
        try run(SyncCursorsTable.upsertSQL, [.text(name), .text(value)])
    }
}
