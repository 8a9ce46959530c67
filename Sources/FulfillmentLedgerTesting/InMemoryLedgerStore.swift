import FulfillmentLedger
import SQLiteLedgerStore
import Synchronization

/// A ledger store kept in memory, for fast suites: a SQLite in-memory database, so it runs the
/// same data layer, tables, statements and constraints as the file store without a file, a WAL
/// or a sync, and a new table needs nothing of its own here.
///
/// One connection behind a lock: reads and writes take turns, each in a transaction of its
/// own; a write body that throws rolls back everything it did. Nothing here waits for I/O (the
/// database, its journal and its temporary tables are memory), so bodies run on the caller's
/// thread.
public final class InMemoryLedgerStore: LedgerStore {
    /// The database; nil once closed.
    private let connection: Mutex<SQLiteConnection?>

    /// Creates an empty store with the current schema.
    public init() {
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
            // Only a SQLite out of memory fails to create an empty database: nothing to test then.
            fatalError("cannot create an in-memory ledger: \(error)")
        }
    }

    /// What `open(_:)` takes: nothing, an in-memory store is always new and empty.
    public struct Configuration: Sendable {
        /// The only configuration.
        public init() {}
    }

    /// A new, empty store, through the store port.
    public static func open(_ configuration: Configuration = Configuration()) async -> InMemoryLedgerStore {
        InMemoryLedgerStore()
    }

    /// Most times a write body that reports a retryable conflict is run again.
    public static let retryCountMax = 8

    /// Runs `body` in a read transaction, on the caller's task: memory holds no lock across an
    /// await and waits for no I/O.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try transaction("BEGIN DEFERRED", body)
    }

    /// Runs `body` in a write transaction; a body that throws a retryable failure runs again,
    /// up to `retryCountMax` times. Every write is as durable as memory gets, whatever
    /// `durability` asks.
    @discardableResult
    public func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await WriteRetryPolicy(retryCountMax: Self.retryCountMax).run { () throws(LedgerError) -> T in
            try transaction("BEGIN IMMEDIATE", body)
        }
    }

    /// Drops the database; a read or write after it fails with a storage error.
    public func close() async {
        connection.withLock { $0 = nil }
    }

    /// Runs `body` between `begin` and `COMMIT`, rolled back when it throws.
    private func transaction<T: Sendable>(
        _ begin: String, _ body: (LedgerWriter) throws(LedgerError) -> T
    ) throws(LedgerError) -> T {
        try connection.withLock { (held: inout SQLiteConnection?) throws(LedgerError) -> T in
            guard let connection = held else {
                throw .storage(StorageFailure(engine: "sqlite", code: "closed", message: ":memory:: the store is closed", sql: nil, kind: .other))
            }
            defer { connection.rollbackIfOpen() }
            do throws(SQLiteError) { try connection.executeCached(begin) } catch { throw error.ledgerError }
            let value = try body(connection.ledgerWriter)
            do throws(SQLiteError) { try connection.executeCached("COMMIT") } catch { throw error.ledgerError }
            return value
        }
    }
}
