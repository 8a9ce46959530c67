/// What an engine gives the ledger's data layer: one connection inside one open transaction,
/// valid only for one `read` or `write` of its store. The engine's half of a SQL store; the
/// other half, every table's reads and writes, is the core's data layer (`LedgerReader`,
/// `LedgerWriter`), written once.
///
/// Statements arrive in the ledger's SQL (`SQLDialect` says what that is); the session runs
/// `dialect.render(_:)` on a statement's text before preparing it, and may cache both by the
/// text it was given. Failures are the core's: an engine error becomes `.storage` with the
/// engine's code, the statement and a `StorageFailure.Kind` set from the code.
public protocol SQLSession: AnyObject {
    /// How this engine writes what differs between engines.
    var dialect: SQLDialect { get }
    /// The ledger's location as errors name it (a file path, a connection string without its password).
    var location: String { get }

    /// Runs a statement with positional parameters and returns its rows, at most
    /// `rowCountMax` (a statement that can return more says `LIMIT` as well, so no engine
    /// reads past it). Rows past the limit are an error on an engine that cannot stop early.
    func query(_ sql: String, _ parameters: [SQLValue], rowCountMax: Int) throws(LedgerError) -> [SQLRow]

    /// Runs a statement that returns no rows and returns how many rows it changed.
    @discardableResult
    func execute(_ sql: String, _ parameters: [SQLValue]) throws(LedgerError) -> Int

    /// Runs an INSERT of one row into a table keyed by a `.sequence` column and returns the
    /// number the engine gave the row: SQLite reads its rowid back, PostgreSQL adds
    /// `RETURNING <column>` (SQLite's `RETURNING` collects its rows in a temporary b-tree first,
    /// which costs more than the insert: 32,000 instructions per event).
    func insertReturningSequence(_ sql: String, _ parameters: [SQLValue], sequenceColumn: String) throws(LedgerError) -> Int64
}

extension SQLSession {
    /// The insert with `RETURNING <column>`, its one row read back: SQL every engine of the
    /// ledger speaks, for an engine whose `RETURNING` costs no more than the insert (SQLite
    /// reads its rowid back instead).
    public func insertReturningSequence(_ sql: String, _ parameters: [SQLValue], sequenceColumn: String) throws(LedgerError) -> Int64 {
        guard let row = try query(sql + " RETURNING " + sequenceColumn, parameters, rowCountMax: 1).first else {
            throw LedgerError.integrityCheckFailed(location: location, detail: "unreadable the \(sequenceColumn) of a new row")
        }
        return try row.int64(0)
    }
}
