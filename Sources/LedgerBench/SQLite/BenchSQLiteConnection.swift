import CSQLite

/// A bare SQLite connection for the bench's raw baselines (R1, R1L) and its bulk load,
/// used straight through the C API so they measure SQLite, not the ledger's statement
/// layer. Statements are finalized when released. Not Sendable: one owner.
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

        /// Binds texts to consecutive parameters starting at 1-based `first`.
        func bind(_ texts: [String], from first: Int32 = 1) {
            for (offset, text) in texts.enumerated() { bind(first + Int32(offset), text) }
        }

        /// Steps a query through its rows without reading them (at most `rowCountMax`),
        /// then resets it.
        func skipRows() throws(BenchSQLiteFailure) {
            defer { sqlite3_reset(handle) }
            for _ in 0...BenchSQLiteConnection.rowCountMax {
                let code = sqlite3_step(handle)
                if code == SQLITE_DONE { return }
                guard code == SQLITE_ROW else { throw connection.failure(code, String(cString: sqlite3_sql(handle))) }
            }
        }

        /// The first column of the first row as an integer, nil without a row; then resets.
        func firstInteger() throws(BenchSQLiteFailure) -> Int64? {
            defer { sqlite3_reset(handle) }
            let code = sqlite3_step(handle)
            if code == SQLITE_DONE { return nil }
            guard code == SQLITE_ROW else { throw connection.failure(code, String(cString: sqlite3_sql(handle))) }
            return sqlite3_column_int64(handle, 0)
        }

        /// Steps a statement that returns no rows, then resets it; bindings stay for the next run.
        func run() throws(BenchSQLiteFailure) {
            let code = sqlite3_step(handle)
            sqlite3_reset(handle)
            guard code == SQLITE_DONE else { throw connection.failure(code, String(cString: sqlite3_sql(handle))) }
        }
    }

    /// Most rows `skipRows` steps through; the baselines' queries return at most one.
    static let rowCountMax = 1_000

    /// SQLite's "copy the bytes now" destructor marker.
    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    let handle: OpaquePointer

    /// Opens a database read-write; `create` also creates a missing file.
    init(path: String, create: Bool = false) throws(BenchSQLiteFailure) {
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX | (create ? SQLITE_OPEN_CREATE : 0)
        let code = sqlite3_open_v2(path, &opened, flags, nil)
        guard code == SQLITE_OK, let opened else {
            sqlite3_close_v2(opened)
            throw BenchSQLiteFailure(code: code, description: "cannot open \(path): SQLite code \(code)")
        }
        handle = opened
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements that return no rows.
    func execute(_ sql: String) throws(BenchSQLiteFailure) {
        let code = sqlite3_exec(handle, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(code, sql) }
    }

    /// The first column of the first row of `sql` as text, if any.
    func text(_ sql: String) throws(BenchSQLiteFailure) -> String? {
        let statement = try prepare(sql)
        let code = sqlite3_step(statement.handle)
        guard code == SQLITE_ROW || code == SQLITE_DONE else { throw failure(code, sql) }
        guard code == SQLITE_ROW, let bytes = sqlite3_column_text(statement.handle, 0) else { return nil }
        return String(cString: bytes)
    }

    /// Prepares `sql` for repeated runs.
    func prepare(_ sql: String) throws(BenchSQLiteFailure) -> Statement {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(code, sql) }
        return Statement(handle: statement, connection: self)
    }

    fileprivate func failure(_ code: Int32, _ sql: String) -> BenchSQLiteFailure {
        BenchSQLiteFailure(code: code, description: "SQLite \(code): \(String(cString: sqlite3_errmsg(handle))) in \(sql)")
    }
}
