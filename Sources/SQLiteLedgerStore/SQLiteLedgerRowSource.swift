import FulfillmentLedger
import LedgerSQL

/// Opens a SQLite ledger file's raw rows for copying it to another engine (`ledger migrate`).
///
/// Opening migrates the file to this build's schema through the store (so the copy is of the
/// current schema), then takes SQLite's write lock with `BEGIN IMMEDIATE` and keeps it until
/// the source's `close()`: every server still writing waits or fails with a busy error, none
/// commits in the middle of the copy, and every read sees one snapshot. The reads themselves
/// are the shared `SQLLedgerRowSource`'s.
package enum SQLiteLedgerRowSource {
    /// How long opening waits for another connection's write lock.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    /// Opens the ledger at `path` (it must exist) and locks writers out.
    package static func open(path: String) async throws(LedgerError) -> SQLLedgerRowSource {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        // Proves the file is a ledger and brings it to the current schema; closed at once.
        await (try await SQLiteLedgerStore.open(path: path, options: options)).close()
        let connection = try LedgerFileInspector.open(path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        let untyped: String?
        do throws(SQLiteError) {
            try connection.execute("BEGIN IMMEDIATE")
            untyped = try tableHoldingUntypedValue(connection)
        } catch {
            connection.rollbackIfOpen()
            connection.close()
            throw LedgerFileInspector.fileError(error, path: path)
        }
        if let untyped {
            connection.rollbackIfOpen()
            connection.close()
            throw LedgerError.integrityCheckFailed(location: path, detail: "\(untyped) holds a real or a blob value")
        }
        return SQLLedgerRowSource(session: SQLiteLedgerSession(connection: connection)) { session in
            // The session is the one made here, so its connection is this one.
            guard let connection = (session as? SQLiteLedgerSession)?.connection else { return }
            connection.rollbackIfOpen()
            connection.close()
        }
    }

    /// The first table with a real or a blob in any column, which the ledger never stores: only
    /// SQLite keeps whatever type a tampered file holds, and the shared reads would take such a
    /// value as its text, so the copy refuses the file here, before reading a row.
    static func tableHoldingUntypedValue(_ connection: SQLiteConnection) throws(SQLiteError) -> String? {
        for table in LedgerSchemaDescription.tables {
            let typed = table.columns.map { "typeof(\($0.name)) IN ('real', 'blob')" }.joined(separator: " OR ")
            if try connection.integer("SELECT EXISTS (SELECT 1 FROM \(table.name) WHERE \(typed))") != 0 { return table.name }
        }
        return nil
    }
}
