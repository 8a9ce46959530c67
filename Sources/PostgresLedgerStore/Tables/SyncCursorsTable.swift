import FulfillmentLedger

/// `sync_cursors`: named positions of periodic store syncs, such as the voided-purchases
/// watermark, so a sync resumes where it stopped.
enum SyncCursorsTable {
    static let createSQL = """
        CREATE TABLE sync_cursors (
            name text COLLATE "C" PRIMARY KEY,
            value text NOT NULL
        );
        """

    static let selectSQL = "SELECT value FROM sync_cursors WHERE name = $1"
    static let upsertSQL = """
        INSERT INTO sync_cursors (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value
        """
}

extension PostgresLedgerSession {
    func syncCursor(name: String) throws(LedgerError) -> String? {
        try one(SyncCursorsTable.selectSQL, [.text(name)]) { (row) throws(PostgresError) in try row.text(0) }
    }

    func setSyncCursor(name: String, value: String) throws(LedgerError) {
        try run(SyncCursorsTable.upsertSQL, [.text(name), .text(value)])
    }
}
