import FulfillmentLedger
import LedgerSQL
import Synchronization

/// A SQLite ledger file's raw rows, for copying it to another engine (`ledger migrate`).
///
/// Opening migrates the file to this build's schema through the store (so the copy is of the
/// current schema), then takes SQLite's write lock with `BEGIN IMMEDIATE` and keeps it until
/// `close()`: every server still writing waits or fails with a busy error, none commits in the
/// middle of the copy, and every read sees one snapshot.
///
/// Sendable because `lock` serializes every use of the one connection, which is not.
package final class SQLiteLedgerRowSource: LedgerRowSource, @unchecked Sendable {
    /// How long opening waits for another connection's write lock.
    static let busyTimeoutMilliseconds: Int32 = 5_000

    package let location: String
    private let lock = Mutex(())
    private var connection: SQLiteConnection?

    /// Opens the ledger at `path` (it must exist) and locks writers out.
    package static func open(path: String) throws(LedgerError) -> SQLiteLedgerRowSource {
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        // Proves the file is a ledger and brings it to the current schema; released at once.
        _ = try SQLiteLedgerStore(path: path, options: options)
        let connection: SQLiteConnection
        do throws(SQLiteError) {
            connection = try SQLiteConnection(path: path, mode: .readWrite)
            connection.setBusyTimeout(milliseconds: busyTimeoutMilliseconds)
            try connection.execute("BEGIN IMMEDIATE")
        } catch {
            throw LedgerFileInspector.fileError(error, path: path)
        }
        return SQLiteLedgerRowSource(path: path, connection: connection)
    }

    private init(path: String, connection: SQLiteConnection) {
        location = path
        self.connection = connection
    }

    deinit { close() }

    package func close() {
        lock.withLock { _ in
            connection?.rollbackIfOpen()
            connection?.close()
            connection = nil
        }
    }

    package func columnNames(table: String) throws(LedgerError) -> [String] {
        let name = try Self.identifier(table)
        return try withSession { (session) throws(LedgerError) in
            try session.sql { () throws(SQLiteError) in
                try session.connection.statement("SELECT name FROM pragma_table_info(?) ORDER BY cid").query(
                    [.text(name)], rowCountMax: Self.columnCountMax
                ) { row in row.text(0) }
            }
        }
    }

    package func rowCount(table: String) throws(LedgerError) -> Int64 {
        let name = try Self.identifier(table)
        return try withSession { (session) throws(LedgerError) in
            try session.sql { () throws(SQLiteError) in try session.connection.integer("SELECT count(*) FROM \(name)") }
        }
    }

    package func forEachBatch(
        table: String, columns: [String], orderedBy: [String], batchRowCountMax: Int, rowCountMax: Int64,
        _ body: ([[LedgerCopyValue]]) throws(LedgerError) -> Void
    ) throws(LedgerError) {
        precondition(batchRowCountMax > 0 && !columns.isEmpty, "a batch holds at least one row of at least one column")
        let name = try Self.identifier(table)
        let list = try columns.map { (column) throws(LedgerError) in try Self.identifier(column) }
        let order = try orderedBy.map { (column) throws(LedgerError) in try Self.identifier(column) }
        let sql = "SELECT \(list.joined(separator: ", ")) FROM \(name)"
            + (order.isEmpty ? "" : " ORDER BY " + order.joined(separator: ", "))
        try withSession { (session) throws(LedgerError) in
            let statement = try session.sql { () throws(SQLiteError) in
                let statement = try session.connection.statement(sql)
                try statement.bind([])
                return statement
            }
            defer { statement.reset() }
            var batch: [[LedgerCopyValue]] = []
            batch.reserveCapacity(batchRowCountMax)
            var rowCount: Int64 = 0
            while let row = try session.sql({ () throws(SQLiteError) in
                try statement.next { row in (0..<Int32(list.count)).map { row.storedValue($0) } }
            }) {
                rowCount += 1
                guard rowCount <= rowCountMax else {
                    throw LedgerError.invalidArgument("\(name) holds more than \(rowCountMax) rows, more than a copy reads")
                }
                batch.append(try row.map { (value) throws(LedgerError) in try Self.copyValue(value, table: name, location: location) })
                if batch.count == batchRowCountMax {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try body(batch) }
        }
    }

    /// Most columns one table may have.
    static let columnCountMax = 64

    private func withSession<T>(_ body: (SQLiteLedgerSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try lock.withLock { (_) throws(LedgerError) -> T in
            guard let open = connection else { throw LedgerError.invalidArgument("the row source of \(location) is closed") }
            return try body(SQLiteLedgerSession(connection: open))
        }
    }

    /// A table or column name, refused unless it is a plain lowercase identifier (it is
    /// spliced into SQL).
    private static func identifier(_ name: String) throws(LedgerError) -> String {
        guard !name.isEmpty, name.utf8.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { throw LedgerError.invalidArgument("\(name) is not a ledger table or column name") }
        return name
    }

    private static func copyValue(_ value: SQLiteValue?, table: String, location: String) throws(LedgerError) -> LedgerCopyValue {
        switch value {
        case .null: .null
        case .integer(let integer): .integer(integer)
        case .text(let text): .text(text)
        case .bool(let flag): .integer(flag ? 1 : 0)
        case nil: throw LedgerError.integrityCheckFailed(location: location, detail: "\(table) holds a real or a blob value")
        }
    }
}
