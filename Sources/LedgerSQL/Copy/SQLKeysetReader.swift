import FulfillmentLedger

/// Reads a whole table in key order a page at a time, each page the rows after the last one
/// read (`WHERE (key) > (last) ORDER BY key LIMIT n`): one statement on every engine, and no
/// page costs more than the rows it returns. The key must be unique; its columns are read
/// as well when `columns` lacks them, and left out of the rows returned.
struct SQLKeysetReader {
    let session: any SQLSession
    let columns: [String]
    let pageRowCountMax: Int
    /// Where each key column stands in the columns read.
    private let keyIndexes: [Int]
    private let firstPageSQL: String
    private let nextPageSQL: String
    private var page: [SQLRow] = []
    private var pageIndex = 0
    private var exhausted = false

    /// A reader of `columns` of `table`, ordered by the unique `key`.
    init(session: any SQLSession, table: String, columns: [String], key: [String], pageRowCountMax: Int) {
        precondition(!key.isEmpty && pageRowCountMax > 0, "a keyset reader pages by a key, at least one row at a time")
        self.session = session
        self.columns = columns
        self.pageRowCountMax = pageRowCountMax
        let read = columns + key.filter { !columns.contains($0) }
        keyIndexes = key.compactMap { read.firstIndex(of: $0) }
        let select = "SELECT \(read.joined(separator: ", ")) FROM \(table)"
        let order = " ORDER BY \(key.joined(separator: ", ")) LIMIT \(pageRowCountMax)"
        firstPageSQL = select + order
        let placeholders = Array(repeating: "?", count: key.count).joined(separator: ", ")
        nextPageSQL = select + " WHERE (\(key.joined(separator: ", "))) > (\(placeholders))" + order
    }

    /// The next row's values, `columns` in order; nil after the last.
    mutating func next() throws(LedgerError) -> [SQLValue]? {
        if pageIndex == page.count, !exhausted {
            if let last = page.last {
                page = try session.query(nextPageSQL, keyIndexes.map { last.values[$0] }, rowCountMax: pageRowCountMax)
            } else {
                page = try session.query(firstPageSQL, [], rowCountMax: pageRowCountMax)
            }
            pageIndex = 0
            exhausted = page.count < pageRowCountMax
        }
        guard pageIndex < page.count else { return nil }
        pageIndex += 1
        return Array(page[pageIndex - 1].values.prefix(columns.count))
    }
}
