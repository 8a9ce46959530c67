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
    package static func open(path: String) throws(LedgerError) -> SQLLedgerRowSource {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        // Proves the file is a ledger and brings it to the current schema; released at once.
        _ = try SQLiteLedgerStore(path: path, options: options)
        let connection = try LedgerFileInspector.open(path, mode: .readWrite, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        do throws(SQLiteError) {
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            throw LedgerFileInspector.fileError(error, path: path)
        }
        return SQLLedgerRowSource(session: SQLiteLedgerSession(connection: connection)) { session in
            // The session is the one made here, so its connection is this one.
            guard let connection = (session as? SQLiteLedgerSession)?.connection else { return }
            connection.rollbackIfOpen()
            connection.close()
        }
    }
}
