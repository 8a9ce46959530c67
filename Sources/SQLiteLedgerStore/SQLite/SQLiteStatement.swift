import CSQLite
import FulfillmentLedger

/// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
private let transientDestructor = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A prepared statement. Not Sendable: it belongs to its connection's serial owner.
/// Finalized in deinit.
package final class SQLiteStatement {
    let sql: String
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection: connection.handle, code: code, sql: sql)
        }
        self.sql = sql
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to parameters 1...n.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        precondition(
            Int(sqlite3_bind_parameter_count(handle)) == values.count,
            "statement takes \(sqlite3_bind_parameter_count(handle)) parameters, got \(values.count): \(sql)")
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let number): code = sqlite3_bind_int64(handle, index, number)
            case .text(let text): code = sqlite3_bind_text(handle, index, text, -1, transientDestructor)
            case .bool(let flag): code = sqlite3_bind_int64(handle, index, flag ? 1 : 0)
            }
            guard code == SQLITE_OK else { throw SQLiteError(connection: connection.handle, code: code, sql: sql) }
        }
    }

    /// Steps once: true when a row is available.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection: connection.handle, code: code, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Runs a statement that returns no rows.
    package func run(_ values: [SQLiteValue] = []) throws(SQLiteError) {
        try bind(values)
        defer { sqlite3_reset(handle) }
        while try step() {}
    }

    /// Runs a query and maps at most `rowCountMax` rows.
    package func query<T>(
        _ values: [SQLiteValue] = [], rowCountMax: Int, _ map: (SQLiteRow) throws(SQLiteError) -> T
    ) throws(SQLiteError) -> [T] {
        try bind(values)
        defer { sqlite3_reset(handle) }
        var rows: [T] = []
        while rows.count < rowCountMax, try step() {
            rows.append(try map(SQLiteRow(statement: handle)))
        }
        return rows
    }

    /// Runs a query and maps the first row, if any.
    package func queryOne<T>(_ values: [SQLiteValue] = [], _ map: (SQLiteRow) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
        try query(values, rowCountMax: 1, map).first
    }
}

/// The current row of a stepping statement; valid only inside the mapping closure.
package struct SQLiteRow {
    fileprivate let statement: OpaquePointer

    /// Whether column `index` is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(statement, index) == SQLITE_NULL }

    /// Column `index` as an integer (0 for NULL).
    package func int64(_ index: Int32) -> Int64 { sqlite3_column_int64(statement, index) }

    /// Column `index` as text ("" for NULL).
    func text(_ index: Int32) -> String {
        guard let bytes = sqlite3_column_text(statement, index) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, index))
        return String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    }

    /// Column `index` as text, or nil for NULL.
    func optionalText(_ index: Int32) -> String? { isNull(index) ? nil : text(index) }

    /// Every column, by stored type; a real or a blob (which the ledger never stores) as its
    /// text, so a typed read of it fails as an integrity problem instead of reading a number.
    var values: [SQLValue] {
        let count = sqlite3_column_count(statement)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for index in 0..<count { values.append(storedValue(index) ?? .text(text(index))) }
        return values
    }

    /// Column `index` as an integer or text by its stored type; nil for a real or a blob,
    /// which the ledger never stores.
    func storedValue(_ index: Int32) -> SQLiteValue? {
        switch sqlite3_column_type(statement, index) {
        case SQLITE_NULL: .null
        case SQLITE_INTEGER: .integer(int64(index))
        case SQLITE_TEXT: .text(text(index))
        default: nil
        }
    }
}
