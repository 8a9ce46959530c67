import FulfillmentLedger

/// Reads a whole table in key order a page at a time, each page the rows after the last one
/// read (`WHERE (key) > (last) ORDER BY key LIMIT n`): one statement on every engine, and no
/// page costs more than the rows it returns. Values come as both engines print them
/// (`LedgerCopyValue.printed`), for comparing a copy with its source.
struct SQLKeysetReader {
    let session: any SQLSession
    let table: String
    let columns: [String]
    /// Where each key column stands in `columns`.
    let keyIndexes: [Int]
    let pageRowCountMax: Int
    private let firstPageSQL: String
    private let nextPageSQL: String
    private var page: [[String?]] = []
    private var pageIndex = 0
    private var exhausted = false

    /// A reader of `columns` of `table`, ordered by `key` (a unique key, each of its columns in `columns`).
    init(session: any SQLSession, table: String, columns: [String], key: [String], pageRowCountMax: Int) {
        precondition(!key.isEmpty && pageRowCountMax > 0, "a keyset reader pages by a key, at least one row at a time")
        self.session = session
        self.table = table
        self.columns = columns
        keyIndexes = key.map { column in
            guard let index = columns.firstIndex(of: column) else { preconditionFailure("\(table): the key column \(column) is not read") }
            return index
        }
        self.pageRowCountMax = pageRowCountMax
        let select = "SELECT \(columns.joined(separator: ", ")) FROM \(table)"
        let order = " ORDER BY \(key.joined(separator: ", ")) LIMIT \(pageRowCountMax)"
        firstPageSQL = select + order
        let placeholders = Array(repeating: "?", count: key.count).joined(separator: ", ")
        nextPageSQL = select + " WHERE (\(key.joined(separator: ", "))) > (\(placeholders))" + order
    }

    /// The next row, nil after the last.
    mutating func next() throws(LedgerError) -> [String?]? {
        if pageIndex == page.count, !exhausted {
            let rows: [SQLRow]
            if let last = page.last {
                rows = try session.query(nextPageSQL, keyIndexes.map { SQLValue.text(last[$0]) }, rowCountMax: pageRowCountMax)
            } else {
                rows = try session.query(firstPageSQL, [], rowCountMax: pageRowCountMax)
            }
            page = try rows.map { (row) throws(LedgerError) in
                try (0..<columns.count).map { (index) throws(LedgerError) in try row.optionalText(index) }
            }
            pageIndex = 0
            exhausted = page.count < pageRowCountMax
        }
        guard pageIndex < page.count else { return nil }
        pageIndex += 1
        return page[pageIndex - 1]
    }
}
