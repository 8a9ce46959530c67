import CSQLite

/// One SQLite connection. Not Sendable: it is owned by a single serial owner (the store's
/// lock), which is what makes the statement cache and transactions safe.
package final class SQLiteConnection {
    /// How to open the file.
    package enum OpenMode {
        /// Never writes; fails if the file is missing.
        case readOnly
        /// Reads and writes; fails if the file is missing.
        case readWrite
        /// Reads and writes; creates the file if missing.
        case readWriteCreate
    }

    /// Most statements kept prepared; the ledger uses a few dozen distinct SQL texts.
    static let statementCacheCountMax = 128

    let handle: OpaquePointer
    let path: String
    private var statements = StatementCache()
    private var isClosed = false
    /// The `PRAGMA synchronous` level last set through `setSynchronous`, to skip repeats.
    private var synchronousLevel: String?

    package init(path: String, mode: OpenMode, vfsName: String? = nil) throws(SQLiteError) {
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite: flags |= SQLITE_OPEN_READWRITE
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var connection: OpaquePointer?
        let code = sqlite3_open_v2(path, &connection, flags, vfsName)
        guard code == SQLITE_OK, let connection else {
            let error = SQLiteError(connection: connection, code: code, sql: nil)
            // sqlite3_open_v2 allocates a handle even on failure; it must still be closed.
            sqlite3_close_v2(connection)
            throw error
        }
        self.handle = connection
        self.path = path
        sqlite3_extended_result_codes(connection, 1)
    }

    deinit { close() }

    /// Finalizes every cached statement and closes the connection; later use is a programmer error.
    func close() {
        guard !isClosed else { return }
        isClosed = true
        // Statements must be finalized before the connection closes.
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Makes `close` neither checkpoint nor remove the WAL, for a store let go without
    /// `close()`: its release must not write; the next open recovers the WAL.
    func skipCheckpointOnClose() {
        guard !isClosed else { return }
        _ = fulfillment_ledger_sqlite3_skip_checkpoint_on_close(handle)
    }

    /// Whether a transaction is open (the connection is not in autocommit mode).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether the main database was opened read-only (for example a file without write permission).
    var isReadOnly: Bool { sqlite3_db_readonly(handle, "main") == 1 }

    /// The rowid of the last inserted row.
    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Sets how long a locked database is retried before SQLITE_BUSY.
    func setBusyTimeout(milliseconds: Int32) {
        sqlite3_busy_timeout(handle, milliseconds)
    }

    /// Runs one or more statements without parameters or results.
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) }
            sqlite3_free(message)
            var error = SQLiteError(connection: handle, code: code, sql: sql)
            if let text { error.message = text }
            throw error
        }
    }

    /// Runs one statement without parameters or results, prepared once and cached like any
    /// other: for the transaction statements (`BEGIN`, `COMMIT`, savepoints) every read and
    /// write runs, which `execute` would parse each time.
    package func executeCached(_ sql: String) throws(SQLiteError) {
        try statement(sql).run()
    }

    /// A prepared statement for `sql`, cached by its text.
    package func statement(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        if let cached = statements.statement(for: sql) { return cached }
        let statement = try SQLiteStatement(connection: self, sql: sql)
        if statements.count >= Self.statementCacheCountMax { statements.removeAll() }
        statements.insert(statement, for: sql)
        return statement
    }

    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`. On any failure rolls back, but
    /// only while a transaction is still open, and rethrows the first error.
    package func immediateTransaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        precondition(!isInTransaction, "nested transaction on \(path)")
        try executeCached("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try executeCached("COMMIT")
            return value
        } catch {
            rollbackIfOpen()
            throw error
        }
    }

    /// Sets `PRAGMA synchronous` (FULL, NORMAL, ...) unless it is already set; outside any
    /// transaction, because the level applies to the next commit.
    func setSynchronous(_ level: String) throws(SQLiteError) {
        precondition(!isInTransaction, "synchronous changed inside a transaction on \(path)")
        guard synchronousLevel != level else { return }
        try execute("PRAGMA synchronous = \(level)")
        synchronousLevel = level
    }

    /// Rolls back if SQLite has not already done so (some errors end the transaction themselves).
    package func rollbackIfOpen() {
        guard isInTransaction else { return }
        // The first error is what the caller needs; a failing ROLLBACK adds nothing to it.
        try? executeCached("ROLLBACK")
    }

    /// Reads a single integer pragma or query result.
    func integer(_ sql: String) throws(SQLiteError) -> Int64 {
        try statement(sql).queryOne { $0.int64(0) } ?? 0
    }

    /// Reads a single text result.
    package func text(_ sql: String) throws(SQLiteError) -> String? {
        try statement(sql).queryOne { $0.optionalText(0) } ?? nil
    }
}
