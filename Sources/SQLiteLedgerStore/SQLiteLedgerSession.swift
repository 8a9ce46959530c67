import FulfillmentLedger

/// The store port's reader and writer over one SQLite connection, valid only inside one
/// `read` or `write` call. Each table's SQL lives in the file named after that table.
final class SQLiteLedgerSession: LedgerWriter {
    let connection: SQLiteConnection
    /// Finish marks carried but not yet committed, shown by the reads of ledger records and
    /// pending finishes. Empty in a write: a transaction runs the carried marks first.
    let unsettledFinishMarks: UnsettledFinishMarks

    init(connection: SQLiteConnection, unsettledFinishMarks: UnsettledFinishMarks = .none) {
        self.connection = connection
        self.unsettledFinishMarks = unsettledFinishMarks
    }

    /// Runs SQLite calls and reports their errors in the core's terms.
    func sql<T>(_ body: () throws(SQLiteError) -> T) throws(LedgerError) -> T {
        do { return try body() } catch { throw error.ledgerError }
    }

    /// Reports a stored value that does not decode: the file was changed outside the ledger.
    func corrupt(_ what: String) -> LedgerError {
        .integrityCheckFailed(location: connection.path, detail: "unreadable \(what)")
    }
}
