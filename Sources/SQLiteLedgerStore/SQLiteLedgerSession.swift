import FulfillmentLedger

/// The store port's reader and writer over one SQLite connection, valid only inside one
/// `read` or `write` call. Each table's SQL lives in the file named after that table.
final class SQLiteLedgerSession: LedgerWriter {
    let connection: SQLiteConnection

    init(connection: SQLiteConnection) { self.connection = connection }

    /// Runs SQLite calls and reports their errors in the core's terms.
    func sql<T>(_ body: () throws(SQLiteError) -> T) throws(LedgerError) -> T {
        do { return try body() } catch { throw error.ledgerError }
    }

    /// Reports a stored value that does not decode: the file was changed outside the ledger.
    func corrupt(_ what: String) -> LedgerError {
        .integrityCheckFailed(location: connection.path, detail: "unreadable \(what)")
    }
}
