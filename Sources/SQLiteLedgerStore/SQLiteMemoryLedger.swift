import CSQLite
import FulfillmentLedger
import Synchronization

/// A ledger in one SQLite in-memory database: the engine of the testing product's
/// `InMemoryLedgerStore`, so the fake runs the same data layer, schema and constraints as the
/// file store, and a new table needs nothing of its own here.
///
/// One connection behind a lock: reads and writes take turns, each in a transaction of its
/// own, rolled back when its body throws. Nothing here waits for I/O (the database, its
/// journal and its temporary tables are memory), so bodies run on the caller's thread.
package final class SQLiteMemoryLedger: Sendable {
    private let connection: Mutex<SQLiteConnection?>

    /// A new, empty ledger with the current schema.
    package init() throws(LedgerError) {
        do throws(SQLiteError) {
            let opened = try SQLiteConnection(path: ":memory:", mode: .readWriteCreate)
            try opened.execute("PRAGMA foreign_keys = ON")
            try opened.execute("PRAGMA temp_store = MEMORY")
            for step in LedgerSchema.steps(from: 0) {
                try opened.immediateTransaction { () throws(SQLiteError) in
                    try opened.execute(step.sql)
                    try opened.execute("PRAGMA user_version = \(step.version)")
                }
            }
            connection = Mutex(opened)
        } catch {
            throw error.ledgerError
        }
    }

    /// Runs `body` in a read transaction.
    package func read<T: Sendable>(_ body: (LedgerReader) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction: it commits when `body` returns, and rolls back
    /// when it throws.
    package func write<T: Sendable>(_ body: (LedgerWriter) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try transaction("BEGIN IMMEDIATE", body)
    }

    /// Closes the database, which drops everything it held; later reads and writes fail.
    package func close() {
        connection.withLock { $0 = nil }
    }

    private func transaction<T: Sendable>(_ begin: String, _ body: (LedgerWriter) throws(LedgerError) -> T) throws(LedgerError) -> T {
        try connection.withLock { (held: inout SQLiteConnection?) throws(LedgerError) -> T in
            guard let connection = held else {
                throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: ":memory:: the store is closed").ledgerError
            }
            defer { connection.rollbackIfOpen() }
            do throws(SQLiteError) { try connection.executeCached(begin) } catch { throw error.ledgerError }
            let value = try body(SQLiteLedgerSession.writer(connection))
            do throws(SQLiteError) { try connection.executeCached("COMMIT") } catch { throw error.ledgerError }
            return value
        }
    }
}
