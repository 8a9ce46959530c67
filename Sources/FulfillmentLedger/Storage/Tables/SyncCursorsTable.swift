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

extension LedgerReader {
    /// A named sync cursor (such as the voided-purchases watermark), if one was saved.
    public func syncCursor(name: String) throws(LedgerError) -> String? {
        try one(SyncCursorsTable.selectSQL, [.text(name)]) { (row) throws(LedgerError) in try row.text(0) }
    }
}

extension LedgerWriter {
    /// Saves a named sync cursor, replacing the previous value.
    public func setSyncCursor(name: String, value: String) throws(LedgerError) {
        try run(SyncCursorsTable.upsertSQL, [.text(name), .text(value)])
    }
}
