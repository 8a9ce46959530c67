import FulfillmentLedger
import Synchronization

/// A ledger's raw rows, read for a copy to another engine (`ledger migrate`) through one SQL
/// session that its engine opened inside one transaction and keeps until `close()`: the
/// engine's opening takes the snapshot and keeps writers out (SQLite's `BEGIN IMMEDIATE`),
/// and every read here is written once, against the session and its dialect. A table is read
/// a page at a time in the order of its key (`SQLKeysetReader`).
///
/// Sendable because `lock` serializes every use of the one session, whose connection is not.
package final class SQLLedgerRowSource: LedgerRowSource, @unchecked Sendable {
    /// Most columns one table may have.
    static let columnCountMax = 64

    package let location: String
    private let lock = Mutex(())
    private var session: (any SQLSession)?
    /// Ends the engine's transaction and closes its connection.
    private let end: @Sendable (any SQLSession) -> Void

    /// A source over `session`, in its open transaction; `end` ends that and closes the connection.
    package init(session: any SQLSession, end: @escaping @Sendable (any SQLSession) -> Void) {
        location = session.location
        self.session = session
        self.end = end
    }

    deinit { close() }

    package func close() {
        lock.withLock { _ in
            if let session { end(session) }
            session = nil
        }
    }

    package func columnNames(table: String) throws(LedgerError) -> [String] {
        let name = try Self.identifier(table)
        return try withSession { (session) throws(LedgerError) in
            guard let sql = session.dialect.schemaForms.columnNamesSQL else {
                return LedgerSchemaDescription.tables.first { $0.name == name }?.columns.map(\.name) ?? []
            }
            return try session.query(sql, [.text(name)], rowCountMax: Self.columnCountMax).map { (row) throws(LedgerError) in
                try row.text(0)
            }
        }
    }

    package func rowCount(table: String) throws(LedgerError) -> Int64 {
        let name = try Self.identifier(table)
        return try withSession { (session) throws(LedgerError) in
            try session.query("SELECT count(*) FROM \(name)", [], rowCountMax: 1).first?.int64(0) ?? 0
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
        guard let described = LedgerSchemaDescription.tables.first(where: { $0.name == name }) else {
            throw LedgerError.invalidArgument("\(name) is not a ledger table")
        }
        // Paged by the order asked for, then the table's key, which makes every row's place unique.
        let key = described.primaryKey.isEmpty ? described.columns.filter(\.kind.isSequence).map(\.name) : described.primaryKey
        try withSession { (session) throws(LedgerError) in
            var reader = SQLKeysetReader(
                session: session, table: name, columns: list, key: order + key.filter { !order.contains($0) },
                pageRowCountMax: batchRowCountMax)
            var batch: [[LedgerCopyValue]] = []
            batch.reserveCapacity(batchRowCountMax)
            var rowCount: Int64 = 0
            while let row = try reader.next() {
                rowCount += 1
                guard rowCount <= rowCountMax else {
                    throw LedgerError.invalidArgument("\(name) holds more than \(rowCountMax) rows, more than a copy reads")
                }
                batch.append(row.map(LedgerCopyValue.init))
                if batch.count == batchRowCountMax {
                    try body(batch)
                    batch.removeAll(keepingCapacity: true)
                }
            }
            if !batch.isEmpty { try body(batch) }
        }
    }

    private func withSession<T>(_ body: (any SQLSession) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try lock.withLock { (_) throws(LedgerError) -> T in
            guard let session else { throw LedgerError.invalidArgument("the row source of \(location) is closed") }
            return try body(session)
        }
    }

    /// A table or column name, refused unless it is a plain lowercase identifier (it is
    /// spliced into SQL).
    private static func identifier(_ name: String) throws(LedgerError) -> String {
        guard !name.isEmpty, name.utf8.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { throw LedgerError.invalidArgument("\(name) is not a ledger table or column name") }
        return name
    }
}

extension LedgerCopyValue {
    /// A value read from a session as it crosses to another engine: a boolean as 0 or 1, as
    /// SQLite stores it.
    init(_ value: SQLValue) {
        switch value {
        case .null: self = .null
        case .integer(let integer): self = .integer(integer)
        case .text(let text): self = .text(text)
        case .bool(let flag): self = .integer(flag ? 1 : 0)
        }
    }
}
