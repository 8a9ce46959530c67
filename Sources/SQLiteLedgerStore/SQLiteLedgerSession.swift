import FulfillmentLedger

/// The SQLite half of the ledger's data layer: one SQLite connection inside one transaction,
/// for the data layer (`LedgerReader`, `LedgerWriter`), valid only inside one `read` or `write` call. Statements are
/// prepared once per connection and cached by their text (`SQLiteConnection.statement`).
final class SQLiteLedgerSession: SQLSession {
    let connection: SQLiteConnection
    /// Whether each statement first checks the calling task for cancellation: a read's session
    /// does, because its body runs in the reading task. A write's body runs in the committer's
    /// batch, shared with other callers, and runs to its end.
    let checksCancellation: Bool

    init(connection: SQLiteConnection, checksCancellation: Bool = false) {
        self.connection = connection
        self.checksCancellation = checksCancellation
    }

    var dialect: SQLDialect { .sqlite }

    var location: String { connection.path }

    func query(_ sql: String, _ parameters: [SQLValue], rowCountMax: Int) throws(LedgerError) -> [SQLRow] {
        let location = connection.path
        return try self.sql { () throws(SQLiteError) in
            try connection.statement(sql).query(parameters, rowCountMax: rowCountMax) { row in
                SQLRow(values: row.values, location: location)
            }
        }
    }

    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(LedgerError) -> Int {
        try self.sql { () throws(SQLiteError) in
            try connection.statement(sql).run(parameters)
            return connection.changes
        }
    }

    func insertReturningSequence(_ sql: String, _ parameters: [SQLValue], sequenceColumn: String) throws(LedgerError) -> Int64 {
        // A sequence column is the rowid (`INTEGER PRIMARY KEY`), which SQLite hands back.
        try self.sql { () throws(SQLiteError) in
            try connection.statement(sql).run(parameters)
            return connection.lastInsertRowID
        }
    }

    /// Runs SQLite calls and reports their errors in the core's terms.
    func sql<T>(_ body: () throws(SQLiteError) -> T) throws(LedgerError) -> T {
        // An interrupt that came between two statements is cleared when the next one starts.
        if checksCancellation, Task.isCancelled { throw SQLiteReadConnection.cancelled }
        do { return try body() } catch { throw error.ledgerError }
    }
}

extension SQLiteConnection {
    /// The data layer's writer on this connection, inside a write transaction the caller opened:
    /// the group committer's, and the testing product's in-memory store's.
    package var ledgerWriter: LedgerWriter { LedgerWriter(engine: SQLiteLedgerSession(connection: self)) }
}
