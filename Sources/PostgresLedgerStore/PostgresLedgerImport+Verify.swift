import FulfillmentLedger

/// The check after a copy: the compared tables read back from the target, in key order, beside
/// the source's rows in the same order.
extension PostgresLedgerImport {
    /// Most differences listed; the count of the rest is not needed to refuse the copy.
    static let differenceCountMax = 20

    /// Compares every row of `comparedTables` and returns the target's balance checksum and the
    /// differences found (at most `differenceCountMax`).
    static func verify(
        source: any LedgerRowSource, pool: PostgresConnectionPool, location: String
    ) async throws(LedgerError) -> (checksum: String, differences: [String]) {
        do throws(TransactionFailure) {
            return try await pool.transaction(isolation: .repeatableRead, readOnly: true) {
                (connection) throws(TransactionFailure) -> (checksum: String, differences: [String]) in
                do throws(LedgerError) {
                    let session = PostgresLedgerSession(connection: connection, location: location)
                    var differences: [String] = []
                    var balanceChecksum = ""
                    for table in comparedTables {
                        let digest = try compare(table, source: source, session: session, differences: &differences)
                        if table.name == comparedTables[0].name { balanceChecksum = digest }
                    }
                    return (balanceChecksum, differences)
                } catch {
                    throw .ledger(error)
                }
            }
        } catch {
            throw error.ledgerError
        }
    }

    /// Walks one table on both sides in key order through a cursor on the target; returns the
    /// target's checksum of it.
    private static func compare(
        _ table: (name: String, columns: [String], key: [String]), source: any LedgerRowSource,
        session: PostgresLedgerSession, differences: inout [String]
    ) throws(LedgerError) -> String {
        let cursor = "ledger_verify_\(table.name)"
        try session.sql { () throws(PostgresError) in
            _ = try session.connection.execute(
                "DECLARE \(cursor) NO SCROLL CURSOR FOR SELECT \(table.columns.joined(separator: ", ")) FROM \(table.name) "
                    + "ORDER BY \(table.key.joined(separator: ", "))")
        }
        var digest = LedgerRowDigest()
        var pending: [[String?]] = []
        var pendingIndex = 0
        var targetExhausted = false
        func nextTargetRow() throws(LedgerError) -> [String?]? {
            if pendingIndex == pending.count, !targetExhausted {
                pending = try session.sql { () throws(PostgresError) in
                    try session.connection.execute("FETCH FORWARD \(batchRowCountMax) FROM \(cursor)", rowCountMax: batchRowCountMax)
                        .rows.map(\.values)
                }
                pendingIndex = 0
                targetExhausted = pending.isEmpty
            }
            guard pendingIndex < pending.count else { return nil }
            pendingIndex += 1
            let row = pending[pendingIndex - 1]
            digest.append(row)
            return row
        }
        func note(_ difference: String) {
            if differences.count < differenceCountMax { differences.append(difference) }
        }
        try source.forEachBatch(
            table: table.name, columns: table.columns, orderedBy: table.key, batchRowCountMax: batchRowCountMax,
            rowCountMax: tableRowCountMax
        ) { (rows) throws(LedgerError) in
            for row in rows {
                let expected = row.map(\.printed)
                guard let found = try nextTargetRow() else {
                    note("\(table.name): the target ends before the source's row \(describe(expected))")
                    continue
                }
                if found != expected { note("\(table.name): the source has \(describe(expected)), the target \(describe(found))") }
            }
        }
        var extra: Int64 = 0
        while try nextTargetRow() != nil, extra < tableRowCountMax { extra += 1 }
        if extra > 0 { note("\(table.name): the target holds \(extra) rows past the source's last") }
        try session.sql { () throws(PostgresError) in _ = try session.connection.execute("CLOSE \(cursor)") }
        return digest.hexDigest
    }

    private static func describe(_ row: [String?]) -> String {
        "(" + row.map { $0 ?? "NULL" }.joined(separator: ", ") + ")"
    }
}
