import FulfillmentLedger
import LedgerSQL

/// What a copy of a ledger into PostgreSQL did (`ledger migrate`).
public struct PostgresImportReport: Hashable, Sendable, Codable {
    /// How the copy ended.
    public enum Outcome: String, Hashable, Sendable, Codable {
        /// Every row was copied, and the counts and checksums agree.
        case copied
        /// The target already holds ledger rows; nothing was written.
        case refusedTargetNotEmpty
        /// The copy committed but does not match its source (a concurrent writer, a bug):
        /// `problems` says where. The source is unchanged.
        case verificationFailed
    }

    /// One table's rows in the source and in the target.
    public struct Table: Hashable, Sendable, Codable {
        /// The table.
        public var name: String
        /// Rows in the source.
        public var sourceRowCount: Int64
        /// Rows in the target after the copy (before it, for a refusal).
        public var targetRowCount: Int64
    }

    /// How the copy ended.
    public var outcome: Outcome
    /// The source, as its report names it.
    public var source: String
    /// The target, as the connection string without its password.
    public var target: String
    /// Every table, in copy order.
    public var tables: [Table]
    /// The checksum of every balance (player, currency, amount, in that order) in the source.
    public var sourceBalanceChecksum: String
    /// The same checksum read back from the target; equal to the source's when copied.
    public var targetBalanceChecksum: String?
    /// Where the target differs from the source, or why the copy was refused.
    public var problems: [String]
}

/// Copies a ledger from another engine into an empty PostgreSQL ledger, in one transaction, and
/// checks the result: every table's row count, and every balance and inventory row compared
/// one by one, with a balance checksum of each side in the report.
package enum PostgresLedgerImport {
    /// Rows sent in one INSERT.
    static let batchRowCountMax = 1_000
    /// Most rows copied from one table.
    static let tableRowCountMax: Int64 = 1_000_000_000
    /// Most columns read for one table: far more than any ledger table has.
    static let columnCountMax = 64
    /// The tables compared row by row, with the columns that order them bytewise on both engines.
    static let comparedTables: [(name: String, columns: [String], key: [String])] = [
        ("balances", ["player_id", "currency_id", "amount"], ["player_id", "currency_id"]),
        ("inventory", ["player_id", "item_id", "quantity"], ["player_id", "item_id"]),
    ]
    /// Tables whose `sequence` is an identity column, set past the copied rows.
    static var sequencedTables: [String] {
        LedgerSchemaDescription.tables.filter { table in table.columns.contains { $0.kind.isSequence } }.map(\.name)
    }

    /// Copies `source` into the database at `connectionString`, creating the ledger's tables in
    /// an empty database. A database that already holds ledger rows is refused untouched
    /// (`refusedTargetNotEmpty`). Throws for a target that is not a ledger, a source whose
    /// columns differ from the target's, and storage failures; a failed copy leaves no row.
    package static func run(source: any LedgerRowSource, connectionString: String) async throws(LedgerError) -> PostgresImportReport {
        var options = PostgresLedgerStore.Options(connectionString: connectionString)
        options.pool.connectionCountMax = 1
        let store = try await PostgresLedgerStore(options: options)
        do throws(LedgerError) {
            let report = try await copyAndVerify(source: source, store: store)
            await store.close()
            return report
        } catch {
            await store.close()
            throw error
        }
    }

    /// The copy and its check, on an open store.
    private static func copyAndVerify(
        source: any LedgerRowSource, store: PostgresLedgerStore
    ) async throws(LedgerError) -> PostgresImportReport {
        let target = store.location
        let sourceChecksum = try checksum(source: source)
        let counts = try await copy(source: source, pool: store.pool, location: target)
        guard counts.allSatisfy({ $0.refused == false }) else {
            return PostgresImportReport(
                outcome: .refusedTargetNotEmpty, source: source.location, target: target,
                tables: counts.map(\.table), sourceBalanceChecksum: sourceChecksum, targetBalanceChecksum: nil,
                problems: counts.filter(\.refused).map { "\($0.table.name) already holds \($0.table.targetRowCount) rows" })
        }
        let (targetChecksum, differences) = try await verify(source: source, pool: store.pool, location: target)
        var problems = differences
        for count in counts where count.table.sourceRowCount != count.table.targetRowCount {
            problems.append("\(count.table.name): \(count.table.sourceRowCount) rows in the source, \(count.table.targetRowCount) in the target")
        }
        if targetChecksum != sourceChecksum {
            problems.append("the balance checksums differ: \(sourceChecksum) in the source, \(targetChecksum) in the target")
        }
        return PostgresImportReport(
            outcome: problems.isEmpty ? .copied : .verificationFailed, source: source.location, target: target,
            tables: counts.map(\.table), sourceBalanceChecksum: sourceChecksum, targetBalanceChecksum: targetChecksum,
            problems: problems)
    }

    /// A table's counts after the copy, or the target's count that refused it.
    struct TableCount: Sendable {
        var table: PostgresImportReport.Table
        var refused: Bool
    }

    /// The copy itself: one transaction that checks every table is empty, inserts every row,
    /// sets the identity sequences past the copied rows and counts what it wrote.
    private static func copy(
        source: any LedgerRowSource, pool: PostgresConnectionPool, location: String
    ) async throws(LedgerError) -> [TableCount] {
        do throws(TransactionFailure) {
            return try await pool.transaction(isolation: .serializable, retryCountMax: 0) {
                (connection) throws(TransactionFailure) -> [TableCount] in
                do throws(LedgerError) {
                    let session = PostgresLedgerSession(connection: connection, location: location)
                    let existing = try PostgresLedgerSchema.tableNames.map { (table) throws(LedgerError) in
                        (table, try count(table, in: session))
                    }
                    if existing.contains(where: { $0.1 > 0 }) {
                        return try existing.map { (table, rows) throws(LedgerError) in
                            TableCount(
                                table: .init(name: table, sourceRowCount: try source.rowCount(table: table), targetRowCount: rows),
                                refused: rows > 0)
                        }
                    }
                    var counts: [TableCount] = []
                    for table in PostgresLedgerSchema.tableNames {
                        try copyTable(table, from: source, into: session)
                        counts.append(
                            TableCount(
                                table: .init(
                                    name: table, sourceRowCount: try source.rowCount(table: table),
                                    targetRowCount: try count(table, in: session)),
                                refused: false))
                    }
                    for table in sequencedTables {
                        _ = try session.query(
                            "SELECT setval(pg_get_serial_sequence('\(table)', 'sequence'), coalesce(max(sequence), 0) + 1, false) FROM \(table)",
                            [], rowCountMax: 1)
                    }
                    return counts
                } catch {
                    throw .ledger(error)
                }
            }
        } catch {
            throw error.ledgerError
        }
    }

    /// Copies one table, after checking the source has exactly the target's columns.
    private static func copyTable(_ table: String, from source: any LedgerRowSource, into session: PostgresLedgerSession) throws(LedgerError) {
        let columns = try session.query(
            "SELECT column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            [.text(table)], rowCountMax: columnCountMax
        ).map { (row) throws(LedgerError) in try row.text(0) }
        let sourceColumns = try source.columnNames(table: table)
        guard Set(columns) == Set(sourceColumns), columns.count == sourceColumns.count else {
            throw LedgerError.configuration(
                "\(table) has the columns \(sourceColumns.joined(separator: ", ")) in \(source.location) but "
                    + "\(columns.joined(separator: ", ")) in the target: the two ledgers' builds differ")
        }
        let list = columns.joined(separator: ", ")
        let insert = """
            INSERT INTO \(table) (\(list)) OVERRIDING SYSTEM VALUE
            SELECT \(list) FROM json_populate_recordset(NULL::\(table), $1::json)
            """
        try source.forEachBatch(
            table: table, columns: columns, orderedBy: [], batchRowCountMax: batchRowCountMax, rowCountMax: tableRowCountMax
        ) { (rows) throws(LedgerError) in
            try session.execute(insert, [.text(json(rows, columns: columns))])
        }
    }

    /// Rows as a JSON array of objects keyed by column, what `json_populate_recordset` reads.
    static func json(_ rows: [[LedgerCopyValue]], columns: [String]) -> String {
        var text = "["
        for (index, row) in rows.enumerated() {
            if index > 0 { text += "," }
            text += "{"
            for (column, value) in zip(columns, row) {
                if text.last != "{" { text += "," }
                text += "\"\(column)\":"
                switch value {
                case .null: text += "null"
                case .integer(let integer): text += String(integer)
                case .text(let string): StoredForm.appendJSONString(string, to: &text)
                }
            }
            text += "}"
        }
        return text + "]"
    }

    private static func count(_ table: String, in session: PostgresLedgerSession) throws(LedgerError) -> Int64 {
        try session.query("SELECT count(*) FROM \(table)", [], rowCountMax: 1).first?.int64(0) ?? 0
    }

    /// The source's balance checksum.
    private static func checksum(source: any LedgerRowSource) throws(LedgerError) -> String {
        let balances = comparedTables[0]
        var digest = LedgerRowDigest()
        try source.forEachBatch(
            table: balances.name, columns: balances.columns, orderedBy: balances.key, batchRowCountMax: batchRowCountMax,
            rowCountMax: tableRowCountMax
        ) { (rows) throws(LedgerError) in
            for row in rows { digest.append(row.map(\.printed)) }
        }
        return digest.hexDigest
    }
}
