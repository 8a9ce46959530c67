/// One column's value of a ledger row on its way from one engine to another. The lean schema
/// stores only integers, text and NULL, so nothing else needs to cross.
package enum LedgerCopyValue: Sendable, Hashable {
    case null
    case integer(Int64)
    case text(String)

    /// The value as both engines print it (an integer in decimal), nil for NULL: what a
    /// verification compares, since PostgreSQL returns every value as text.
    package var printed: String? {
        switch self {
        case .null: nil
        case .integer(let value): String(value)
        case .text(let value): value
        }
    }
}

/// The raw rows of a ledger's tables, read for a copy to another engine (`ledger migrate`).
///
/// A source holds one snapshot from its opening to `close()` and keeps every writer out
/// meanwhile, so the copy and its verification see the same ledger. Calls are synchronous: the
/// copy makes them from the target's own connection thread, never a cooperative one.
package protocol LedgerRowSource: Sendable {
    /// Where the rows come from, as reports name it.
    var location: String { get }

    /// The table's columns, in the source's order; an empty array for a table it lacks.
    func columnNames(table: String) throws(LedgerError) -> [String]

    /// How many rows the table holds.
    func rowCount(table: String) throws(LedgerError) -> Int64

    /// Calls `body` with the table's rows, `columns` in that order, at most `batchRowCountMax`
    /// rows a call, ordered by `orderedBy` (compared bytewise) when it is not empty. Reads at
    /// most `rowCountMax` rows, and throws rather than stop short of the table's end.
    func forEachBatch(
        table: String, columns: [String], orderedBy: [String], batchRowCountMax: Int, rowCountMax: Int64,
        _ body: ([[LedgerCopyValue]]) throws(LedgerError) -> Void
    ) throws(LedgerError)

    /// Ends the snapshot and lets writers in again.
    func close()
}
