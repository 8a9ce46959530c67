/// Reads of ledger state, inside one `LedgerStore.read` or `write` call: the data layer, every
/// table's reads written once in SQL and run on the engine's `SQLSession`. Valid only inside
/// that call.
///
/// Each table's reads and writes, and its SQL, live in the file named after that table
/// (`Storage/Tables/`), as extensions of this class and of `LedgerWriter`. A new table is that
/// file, an entry of `LedgerSchemaDescription`, and a conformance case: an engine, being a
/// session and a dialect, needs nothing new for it.
public class LedgerReader {
    /// The engine's connection inside the transaction.
    public let engine: any SQLSession
    /// How the engine writes what differs.
    public let dialect: SQLDialect
    /// Finish marks carried but not yet committed, shown by the reads of ledger records and
    /// pending finishes (a store that carries marks, `LedgerStore.markFinished`). Empty in a
    /// write: a store runs carried marks before the write's body.
    public let unsettledFinishMarks: UnsettledFinishMarks
    /// Whether this transaction holds the change feed's lock (`SQLDialect.changeFeedLockSQL`).
    var holdsFeedLock = false

    /// The data layer over `engine`, with the carried marks a read lays over its snapshot.
    public init(engine: any SQLSession, unsettledFinishMarks: UnsettledFinishMarks = .none) {
        self.engine = engine
        self.dialect = engine.dialect
        self.unsettledFinishMarks = unsettledFinishMarks
    }

    /// Rows of a query, at most `limit` (the SQL says `LIMIT` as well), each mapped.
    package func rows<T>(
        _ sql: String, _ parameters: [SQLValue], limit: Int, _ map: (SQLRow) throws(LedgerError) -> T
    ) throws(LedgerError) -> [T] {
        var mapped: [T] = []
        for row in try engine.query(sql, parameters, rowCountMax: max(0, limit)) { mapped.append(try map(row)) }
        return mapped
    }

    /// The first row of a query that returns at most one, mapped.
    package func one<T>(
        _ sql: String, _ parameters: [SQLValue], _ map: (SQLRow) throws(LedgerError) -> T
    ) throws(LedgerError) -> T? {
        guard let row = try engine.query(sql, parameters, rowCountMax: 1).first else { return nil }
        return try map(row)
    }

    /// Reports a stored value that does not decode: the database was changed outside the ledger.
    func corrupt(_ what: String) -> LedgerError {
        .integrityCheckFailed(location: engine.location, detail: "unreadable \(what)")
    }
}
