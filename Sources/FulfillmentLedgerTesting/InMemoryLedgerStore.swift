import FulfillmentLedger
import SQLiteLedgerStore

/// A ledger store kept in memory, for fast suites: a SQLite in-memory database, so it runs
/// the same tables, statements and constraints as the file store without a file, a WAL or a
/// sync.
///
/// Reads and writes take turns on its one connection, each in a transaction of its own; a
/// write body that throws rolls back everything it did.
public final class InMemoryLedgerStore: LedgerStore {
    private let ledger: SQLiteMemoryLedger

    /// Creates an empty store.
    public init() {
        do throws(LedgerError) {
            ledger = try SQLiteMemoryLedger()
        } catch {
            // Only an out-of-memory SQLite fails to create an empty database: nothing to test then.
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

    /// Runs `body` in a read transaction. Memory holds no lock across an await and the
    /// database waits for no I/O, so the body runs on the caller's task.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try ledger.read(body)
    }

    /// Runs `body` in a write transaction; a body that throws a retryable failure runs again,
    /// up to `retryCountMax` times. Every write is as durable as memory gets, whatever
    /// `durability` asks.
    @discardableResult
    public func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await WriteRetryPolicy(retryCountMax: Self.retryCountMax).run { () throws(LedgerError) -> T in
            try ledger.write(body)
        }
    }

    /// Drops the database; a read or write after it fails with a storage error.
    public func close() async {
        ledger.close()
    }
}
