import FulfillmentLedger

/// `sync_cursors`: named positions of periodic store syncs, such as the voided-purchases
/// watermark, so a sync resumes where it stopped.
enum SyncCursorsTable {
    static let createSQL = """
        CREATE TABLE sync_cursors (
            name TEXT PRIMARY KEY NOT NULL,
            value TEXT NOT NULL
        ) WITHOUT ROWID;
        """
}

extension SQLiteLedgerSession {
    func syncCursor(name: String) throws(LedgerError) -> String? {
        try sql { () throws(SQLiteError) in
            try connection.statement("SELECT value FROM sync_cursors WHERE name = ?").queryOne([.text(name)]) {
                $0.text(0)
            }
        }
    }

    func setSyncCursor(name: String, value: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                "INSERT INTO sync_cursors (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value"
            ).run([.text(name), .text(value)])
        }
    }
}
