import CLibPQ

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
            let values = (0..<columnCount).map { column -> String? in
                let (row, column) = (Int32(row), Int32(column))
                guard PQgetisnull(result, row, column) == 0, let bytes = PQgetvalue(result, row, column) else { return nil }
                let count = Int(PQgetlength(result, row, column))
                return bytes.withMemoryRebound(to: UInt8.self, capacity: count) {
                    String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
                }
            }
            return PostgresRow(columnNames: names, values: values, sql: sql)
        }
        commandTag = PQcmdStatus(result).map { String(cString: $0) } ?? ""
        affectedRowCount = PQcmdTuples(result).flatMap { Int64(String(cString: $0)) } ?? 0
    }
}

/// One row of a result, its values in text format; typed reads check the text.
package struct PostgresRow: Sendable {
    /// The column names, shared with the result.
    let columnNames: [String]
    /// One value per column, nil for NULL.
    package let values: [String?]
    /// The statement, for error messages.
    let sql: String

    /// Column `index` as text, or nil for NULL.
    package func optionalText(_ index: Int) throws(PostgresError) -> String? {
        guard values.indices.contains(index) else {
            throw unexpected(index, "is past the last of the row's \(values.count) columns")
        }
        return values[index]
    }

    /// Column `index` as text; NULL is an error.
    package func text(_ index: Int) throws(PostgresError) -> String {
        guard let text = try optionalText(index) else { throw unexpected(index, "is NULL") }
        return text
    }

    /// Column `index` as a 64-bit integer, or nil for NULL.
    package func optionalInt64(_ index: Int) throws(PostgresError) -> Int64? {
        guard let text = try optionalText(index) else { return nil }
        guard let number = Int64(text) else { throw unexpected(index, "holds \(text.prefix(40)), not a 64-bit integer") }
        return number
    }

    /// Column `index` as a 64-bit integer; NULL is an error.
    package func int64(_ index: Int) throws(PostgresError) -> Int64 {
        guard let number = try optionalInt64(index) else { throw unexpected(index, "is NULL") }
        return number
    }

    /// Column `index` as a boolean (PostgreSQL's text form `t` or `f`), or nil for NULL.
    package func optionalBool(_ index: Int) throws(PostgresError) -> Bool? {
        switch try optionalText(index) {
        case nil: return nil
        case "t": return true
        case "f": return false
        case let text?: throw unexpected(index, "holds \(text.prefix(40)), not a boolean")
        }
    }

    /// Column `index` as a boolean; NULL is an error.
    package func bool(_ index: Int) throws(PostgresError) -> Bool {
        guard let flag = try optionalBool(index) else { throw unexpected(index, "is NULL") }
        return flag
    }

    /// An `unexpectedValue` error naming the column.
    private func unexpected(_ index: Int, _ problem: String) -> PostgresError {
        let name = columnNames.indices.contains(index) ? " (\(columnNames[index]))" : ""
        return PostgresError(kind: .unexpectedValue, message: "column \(index)\(name) \(problem)", sql: sql)
    }
}
