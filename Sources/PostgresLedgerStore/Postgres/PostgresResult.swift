import CLibPQ
import FulfillmentLedger

/// The rows and the command tag of one statement, copied out of libpq's result so that it outlives
/// it and can cross threads.
package struct PostgresResult: Sendable {
    /// The column names, in order.
    package let columnNames: [String]
    /// The rows, each with one value per column.
    package let rows: [PostgresRow]
    /// The command tag, such as `INSERT 0 1` or `SELECT 3`.
    package let commandTag: String
    /// Rows inserted, updated, deleted, selected, ... as the command tag says; 0 when it says none.
    package let affectedRowCount: Int64

    /// Copies `result` (which the caller still clears) after checking it against `rowCountMax`.
    init(copying result: OpaquePointer, sql: String, rowCountMax: Int) throws(PostgresError) {
        let rowCount = Int(PQntuples(result))
        guard rowCount <= rowCountMax else {
            throw PostgresError(
                kind: .rowCountExceeded, message: "the query returned \(rowCount) rows, more than its limit of \(rowCountMax)",
                sql: sql)
        }
        let columnCount = Int(PQnfields(result))
        let names = (0..<columnCount).map { String(cString: PQfname(result, Int32($0))) }
        columnNames = names
        rows = (0..<rowCount).map { row in
            let values = (0..<columnCount).map { column -> SQLValue in
                let (row, column) = (Int32(row), Int32(column))
                guard PQgetisnull(result, row, column) == 0, let bytes = PQgetvalue(result, row, column) else { return .null }
                let count = Int(PQgetlength(result, row, column))
                return .text(
                    bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
                        String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                    })
            }
            return PostgresRow(columnNames: names, row: SQLRow(values: values, location: sql), sql: sql)
        }
        commandTag = PQcmdStatus(result).map { String(cString: $0) } ?? ""
        affectedRowCount = PQcmdTuples(result).flatMap { Int64(String(cString: $0)) } ?? 0
    }
}

/// One row of a result, its values in PostgreSQL's text format (`.text`, or `.null`): typed
/// reads check the text as the data layer's `SQLRow` does for every engine (booleans are `t`
/// and `f`), and fail with `unexpectedValue`.
package struct PostgresRow: Sendable {
    /// The column names, shared with the result.
    let columnNames: [String]
    /// The values, read as the data layer reads any engine's row.
    package let row: SQLRow
    /// The statement, for error messages.
    let sql: String

    /// Column `index` as text, or nil for NULL.
    package func optionalText(_ index: Int) throws(PostgresError) -> String? {
        try read(index) { (row) throws(LedgerError) in try row.optionalText(index) }
    }

    /// Column `index` as text; NULL is an error.
    package func text(_ index: Int) throws(PostgresError) -> String {
        try read(index) { (row) throws(LedgerError) in try row.text(index) }
    }

    /// Column `index` as a 64-bit integer, or nil for NULL.
    package func optionalInt64(_ index: Int) throws(PostgresError) -> Int64? {
        try read(index) { (row) throws(LedgerError) in try row.optionalInt64(index) }
    }

    /// Column `index` as a 64-bit integer; NULL is an error.
    package func int64(_ index: Int) throws(PostgresError) -> Int64 {
        try read(index) { (row) throws(LedgerError) in try row.int64(index) }
    }

    /// Column `index` as a boolean; NULL is an error.
    package func bool(_ index: Int) throws(PostgresError) -> Bool {
        try read(index) { (row) throws(LedgerError) in try row.bool(index) }
    }

    /// A typed read of column `index`; its failure as an `unexpectedValue` error naming the column.
    private func read<T>(_ index: Int, _ body: (SQLRow) throws(LedgerError) -> T) throws(PostgresError) -> T {
        do throws(LedgerError) {
            return try body(row)
        } catch {
            // SQLRow fails with an integrity failure, whose detail says what it found.
            let detail = if case .integrityCheckFailed(_, let detail) = error { detail } else { error.description }
            let name = columnNames.indices.contains(index) ? " (\(columnNames[index]))" : ""
            throw PostgresError(kind: .unexpectedValue, message: detail + name, sql: sql)
        }
    }
}
