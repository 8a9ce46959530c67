import CSQLite

/// A bare SQLite connection for the bench's bulk loads, used straight through the C API
/// so the load measures SQLite, not the ledger's statement layer. Not Sendable: one owner.
final class BenchSQLiteConnection {
    /// A prepared statement; finalized when released.
    final class Statement {
        let handle: OpaquePointer
        /// Held strongly so the connection outlives every statement prepared on it.
        private let connection: BenchSQLiteConnection

        fileprivate init(handle: OpaquePointer, connection: BenchSQLiteConnection) {
            self.handle = handle
            self.connection = connection
        }

        deinit { sqlite3_finalize(handle) }

        /// Binds text to 1-based parameter `index`; SQLite copies it (SQLITE_TRANSIENT).
        func bind(_ index: Int32, _ text: String) {
            sqlite3_bind_text(handle, index, text, -1, BenchSQLiteConnection.transient)
        }

        /// Binds an integer to 1-based parameter `index`.
        func bind(_ index: Int32, _ value: Int64) {
            sqlite3_bind_int64(handle, index, value)
        }

        /// Steps a statement that returns no rows, then resets it; bindings stay for the next run.
        func run() throws(LedgerPrefill.Failure) {
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            guard code == SQLITE_DONE else { throw connection.failure(code, String(cString: sqlite3_sql(handle))) }
        }
    }

    /// SQLite's "copy the bytes now" destructor marker.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    let handle: OpaquePointer

    /// Opens an existing database read-write.
    init(path: String) throws(LedgerPrefill.Failure) {
        var opened: OpaquePointer?
        let code = sqlite3_open_v2(path, &opened, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nil)
        guard code == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw LedgerPrefill.Failure(code: code, description: "cannot open \(path): SQLite code \(code)")
        }
        handle = opened
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(LedgerPrefill.Failure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, sql) }
    }

    /// The first column of the first row of `sql` as text, if any.
    func text(_ sql: String) throws(LedgerPrefill.Failure) -> String? {
        let statement = try prepare(sql)
        let code = sqlite3_step(statement.handle)
        guard code == SQLITE_ROW || code == SQLITE_DONE else { throw failure(code, sql) }
        guard code == SQLITE_ROW, let bytes = sqlite3_column_text(statement.handle, 0) else { return nil }
        return String(cString: bytes)
    }

    /// Prepares `sql` for repeated runs.
    func prepare(_ sql: String) throws(LedgerPrefill.Failure) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        return Statement(handle: statement, connection: self)
    }

    fileprivate func failure(_ code: Int32, _ sql: String) -> LedgerPrefill.Failure {
        LedgerPrefill.Failure(code: code, description: "SQLite \(code): \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
    }
}
