import FulfillmentLedger

/// The store port's reader and writer for any SQL engine, over one `SQLSession`: every
/// table's reads and writes, written once. Valid only inside one `read` or `write` call of
/// its store. Each table's SQL lives in the file named after that table (`Tables/`).
///
/// An engine adds a dialect and a session; its store opens a transaction, runs the port's
/// body on one of these, and commits. Where a table's logic truly differs between engines it
/// reads the dialect, and says why.
public final class SQLLedgerSession: LedgerWriter {
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

    /// A session over `engine`, with the carried marks a read lays over its snapshot.
    public init(engine: any SQLSession, unsettledFinishMarks: UnsettledFinishMarks = .none) {
        self.engine = engine
        self.dialect = engine.dialect
        self.unsettledFinishMarks = unsettledFinishMarks
    }

    /// Rows of a query, at most `limit` (the SQL says `LIMIT` as well), each mapped.
    func rows<T>(
        _ sql: String, _ parameters: [SQLValue], limit: Int, _ map: (SQLRow) throws(LedgerError) -> T
    ) throws(LedgerError) -> [T] {
        var mapped: [T] = []
        for row in try engine.query(sql, parameters, rowCountMax: max(0, limit)) { mapped.append(try map(row)) }
        return mapped
    }

    /// The first row of a query that returns at most one, mapped.
    func one<T>(_ sql: String, _ parameters: [SQLValue], _ map: (SQLRow) throws(LedgerError) -> T) throws(LedgerError) -> T? {
        guard let row = try engine.query(sql, parameters, rowCountMax: 1).first else { return nil }
        return try map(row)
    }

    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    func run(_ sql: String, _ parameters: [SQLValue]) throws(LedgerError) -> Int {
        try engine.execute(sql, parameters)
    }

    /// Reports a stored value that does not decode: the database was changed outside the ledger.
    func corrupt(_ what: String) -> LedgerError {
        .integrityCheckFailed(location: engine.location, detail: "unreadable \(what)")
    }
}
