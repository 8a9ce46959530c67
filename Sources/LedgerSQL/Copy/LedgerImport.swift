import FulfillmentLedger

/// Copies a ledger from one engine into an empty ledger of another, in one transaction of the
/// target's store, and checks the result: every table's row count, and every balance and
/// inventory row compared one by one, with a balance checksum of each side in the report.
///
/// Written once against the target's `SQLSession` and dialect: the target is any store whose
/// readers and writers run on `SQLSession`s, and what differs between engines (identity
/// columns, their sequences) is the dialect's `SQLSchemaForms`.
package enum LedgerImport {
    /// Rows read from the source in one batch.
    static let batchRowCountMax = 1_000
    /// Most parameters one INSERT binds: under SQLite's 32,766 and PostgreSQL's 65,535.
    static let insertParameterCountMax = 30_000
    /// Most rows copied from one table.
    static let tableRowCountMax: Int64 = 1_000_000_000
    /// The tables compared row by row, with the columns that order them bytewise on both engines.
    static let comparedTables: [(name: String, columns: [String], key: [String])] = [
        ("balances", ["player_id", "currency_id", "amount"], ["player_id", "currency_id"]),
        ("inventory", ["player_id", "item_id", "quantity"], ["player_id", "item_id"]),
    ]

    /// Copies `source` into `store`, whose ledger reports name `target`. A store that already
    /// holds ledger rows is refused untouched (`refusedTargetNotEmpty`). Throws for a source
    /// whose columns differ from the target's, and storage failures;
    /// a failed copy leaves no row.
    package static func run(
        source: any LedgerRowSource, into store: any LedgerStore, target: String
    ) async throws(LedgerError) -> LedgerImportReport {
        let sourceChecksum = try checksum(source: source)
        let counts = try await store.write(.durable) { (writer) throws(LedgerError) -> [TableCount] in
            try copy(source: source, into: writer.engine)
        }
        guard counts.allSatisfy({ $0.refused == false }) else {
            return LedgerImportReport(
                outcome: .refusedTargetNotEmpty, source: source.location, target: target,
                tables: counts.map(\.table), sourceBalanceChecksum: sourceChecksum, targetBalanceChecksum: nil,
                problems: counts.filter(\.refused).map { "\($0.table.name) already holds \($0.table.targetRowCount) rows" })
        }
        let (targetChecksum, differences) = try await store.read { (reader) throws(LedgerError) in
            try verify(source: source, session: reader.engine)
        }
        var problems = differences
        for count in counts where count.table.sourceRowCount != count.table.targetRowCount {
            problems.append("\(count.table.name): \(count.table.sourceRowCount) rows in the source, \(count.table.targetRowCount) in the target")
        }
        if targetChecksum != sourceChecksum {
            problems.append("the balance checksums differ: \(sourceChecksum) in the source, \(targetChecksum) in the target")
        }
        return LedgerImportReport(
            outcome: problems.isEmpty ? .copied : .verificationFailed, source: source.location, target: target,
            tables: counts.map(\.table), sourceBalanceChecksum: sourceChecksum, targetBalanceChecksum: targetChecksum,
            problems: problems)
    }

    /// A table's counts after the copy, or the target's count that refused it.
    struct TableCount: Sendable {
        var table: LedgerImportReport.Table
        var refused: Bool
    }

    /// The copy itself, inside the target's write transaction: checks every table is empty,
    /// inserts every row, sets the sequences past the copied rows and counts what it wrote.
    private static func copy(source: any LedgerRowSource, into session: any SQLSession) throws(LedgerError) -> [TableCount] {
        let tables = LedgerSchemaDescription.tables
        let existing = try tables.map { (table) throws(LedgerError) in (table.name, try count(table.name, in: session)) }
        if existing.contains(where: { $0.1 > 0 }) {
            return try existing.map { (table, rows) throws(LedgerError) in
                TableCount(
                    table: .init(name: table, sourceRowCount: try source.rowCount(table: table), targetRowCount: rows),
                    refused: rows > 0)
            }
        }
        var counts: [TableCount] = []
        for table in tables {
            try copyTable(table, from: source, into: session)
            counts.append(
                TableCount(
                    table: .init(
                        name: table.name, sourceRowCount: try source.rowCount(table: table.name),
                        targetRowCount: try count(table.name, in: session)),
                    refused: false))
        }
        guard let restart = session.dialect.schemaForms.sequenceRestartTemplate else { return counts }
        for table in tables {
            for column in table.columns where column.kind.isSequence {
                _ = try session.query(
                    restart.replacingOccurrences(of: "{table}", with: table.name).replacingOccurrences(of: "{column}", with: column.name),
                    [], rowCountMax: 1)
            }
        }
        return counts
    }

    /// Copies one table, after checking the source has exactly the target's columns (the
    /// target's are this build's: its store brought it to this build's schema when it opened).
    private static func copyTable(_ table: SQLTable, from source: any LedgerRowSource, into session: any SQLSession) throws(LedgerError) {
        let columns = table.columns.map(\.name)
        let sourceColumns = try source.columnNames(table: table.name)
        guard Set(columns) == Set(sourceColumns), columns.count == sourceColumns.count else {
            throw LedgerError.configuration(
                "\(table.name) has the columns \(sourceColumns.joined(separator: ", ")) in \(source.location) but "
                    + "\(columns.joined(separator: ", ")) in the target: the two ledgers' builds differ")
        }
        let booleans = table.columns.map { $0.kind == .boolean }
        let rowsPerInsert = max(1, min(batchRowCountMax, insertParameterCountMax / columns.count))
        let insert = "INSERT INTO \(table.name) (\(columns.joined(separator: ", ")))"
            + (session.dialect.schemaForms.identityInsertClause.map { " " + $0 } ?? "") + " VALUES "
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        try source.forEachBatch(
            table: table.name, columns: columns, orderedBy: [], batchRowCountMax: batchRowCountMax, rowCountMax: tableRowCountMax
        ) { (rows) throws(LedgerError) in
            for start in stride(from: 0, to: rows.count, by: rowsPerInsert) {
                let chunk = rows[start..<min(start + rowsPerInsert, rows.count)]
                var parameters: [SQLValue] = []
                parameters.reserveCapacity(chunk.count * columns.count)
                for values in chunk {
                    for (value, isBoolean) in zip(values, booleans) { parameters.append(sqlValue(value, isBoolean: isBoolean)) }
                }
                try session.execute(insert + Array(repeating: row, count: chunk.count).joined(separator: ", "), parameters)
            }
        }
    }

    /// A copied value as the target binds it: a boolean column's 0 or 1 as a boolean, since
    /// an engine with a boolean type refuses an integer there.
    private static func sqlValue(_ value: LedgerCopyValue, isBoolean: Bool) -> SQLValue {
        switch value {
        case .null: .null
        case .integer(let integer): isBoolean ? .bool(integer != 0) : .integer(integer)
        case .text(let text): .text(text)
        }
    }

    /// How many rows `table` holds in the target.
    static func count(_ table: String, in session: any SQLSession) throws(LedgerError) -> Int64 {
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
