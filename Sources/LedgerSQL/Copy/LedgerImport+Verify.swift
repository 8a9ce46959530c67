import FulfillmentLedger

/// The check after a copy: the compared tables read back from the target, in key order, beside
/// the source's rows in the same order.
extension LedgerImport {
    /// Most differences listed; the count of the rest is not needed to refuse the copy.
    static let differenceCountMax = 20

    /// Compares every row of `comparedTables`, inside a read transaction of the target, and
    /// returns the target's balance checksum and the differences found (at most `differenceCountMax`).
    static func verify(
        source: any LedgerRowSource, session: any SQLSession
    ) throws(LedgerError) -> (checksum: String, differences: [String]) {
        var differences: [String] = []
        var balanceChecksum = ""
        for table in comparedTables {
            let digest = try compare(table, source: source, session: session, differences: &differences)
            if table.name == comparedTables[0].name { balanceChecksum = digest }
        }
        return (balanceChecksum, differences)
    }

    /// Walks one table on both sides in key order, the target's a page at a time; returns the
    /// target's checksum of it.
    private static func compare(
        _ table: (name: String, columns: [String], key: [String]), source: any LedgerRowSource,
        session: any SQLSession, differences: inout [String]
    ) throws(LedgerError) -> String {
        var target = SQLKeysetReader(
            session: session, table: table.name, columns: table.columns, key: table.key, pageRowCountMax: batchRowCountMax)
        var digest = LedgerRowDigest()
        func nextTargetRow() throws(LedgerError) -> [String?]? {
            // As both engines print the values: PostgreSQL returns every value as text.
            guard let row = try target.next()?.map({ LedgerCopyValue($0).printed }) else { return nil }
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
        return digest.hexDigest
    }

    private static func describe(_ row: [String?]) -> String {
        "(" + row.map { $0 ?? "NULL" }.joined(separator: ", ") + ")"
    }
}
