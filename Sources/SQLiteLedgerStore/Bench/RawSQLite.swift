import CSQLite

/// The few SQLite C calls the raw baselines (R1, R1L) make, with their errors as
/// `RawSQLiteBaseline.Failure`. Deliberately bare: the baselines measure SQLite itself.
enum RawSQLite {
    /// Opens (creating if missing) a database read-write, without SQLite's own mutex.
    static func open(path: String) throws -> OpaquePointer {
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &handle, flags, nil)
        guard code == SQLITE_OK, let db = handle else {
            sqlite3_close_v2(handle)
            throw RawSQLiteBaseline.Failure(code: code, description: "cannot open \(path): SQLite code \(code)")
        }
        return db
    }

    /// Runs statements that return no rows.
    static func execute(_ db: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(db, code, sql) }
    }

    /// Prepares `sql` for repeated runs; the caller finalizes it.
    static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(db, code, sql) }
        return statement
    }

    /// Binds text parameters starting at 1-based `from`; SQLite copies them (SQLITE_TRANSIENT).
    static func bind(_ statement: OpaquePointer, _ texts: [String], from first: Int32 = 1) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, text) in texts.enumerated() {
            sqlite3_bind_text(statement, first + Int32(offset), text, -1, transient)
        }
    }

    /// Steps a statement that returns no rows, then resets it for reuse.
    static func step(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else { throw failure(db, code, String(cString: sqlite3_sql(statement))) }
    }

    /// Most rows a baseline query steps through; its queries return at most one.
    static let rowCountMax = 1_000

    /// Steps a query through its rows (reading nothing), then resets it.
    static func rows(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
        defer { sqlite3_reset(statement) }
        for _ in 0...rowCountMax {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw failure(db, code, String(cString: sqlite3_sql(statement))) }
        }
    }

    /// The first column of the first row as an integer, if there is a row; then resets.
    static func firstInteger(_ db: OpaquePointer, _ statement: OpaquePointer) throws -> Int64? {
        defer { sqlite3_reset(statement) }
        let code = sqlite3_step(statement)
        if code == SQLITE_DONE { return nil }
        guard code == SQLITE_ROW else { throw failure(db, code, String(cString: sqlite3_sql(statement))) }
        return sqlite3_column_int64(statement, 0)
    }

    static func failure(_ db: OpaquePointer, _ code: Int32, _ sql: String) -> RawSQLiteBaseline.Failure {
        RawSQLiteBaseline.Failure(
            code: code, description: "SQLite \(code): \(String(cString: sqlite3_errmsg(db))) in \(sql)")
    }
}
