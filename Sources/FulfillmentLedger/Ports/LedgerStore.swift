import Foundation

/// Port: a transactional SQL engine holding the ledger's balances, inventory, entitlements,
/// purchase counts, records, economy operations, refunds and event log.
///
/// The port is transactions and lifecycle only: `open`, `read`, `write`, `markFinished` and
/// `close`, `open` and `close` async and off the caller's thread. What a body reads and writes is
/// the data layer, `LedgerReader` and `LedgerWriter`, written once in the core: every table's
/// SQL in its own file (`Storage/Tables/`), run on the engine's `SQLSession` and rendered by
/// its `SQLDialect`. `SQLiteLedgerStore` (the embedded default), `PostgresLedgerStore` (a fleet
/// of servers) and `InMemoryLedgerStore` (SQLite's in-memory database, in
/// `FulfillmentLedgerTesting`) implement it; a new engine is a session, a dialect and the
/// transactions around them. The conformance suite (`LedgerStoreConformance`) runs the same
/// cases on each, and on a store of your own.
///
/// The contract:
/// - `read` runs its body against one consistent snapshot; `write` runs its body as one atomic
///   transaction, fully rolled back when the body throws, and returns only once the commit is
///   as durable as `durability` asks. Concurrent writes to the same rows never lose an update.
/// - Bodies are synchronous and run on the store's own executor (a serialized writer or reader
///   queue, a pooled connection's thread), never on the caller's, so no disk read, network
///   round trip, fsync or lock wait blocks a thread of the cooperative pool. A read body only
///   reads. (The in-memory store waits for no I/O, so its bodies run on the caller's thread.)
/// - A write body may be run again after a retryable conflict (a serialization failure, a
///   deadlock, a race the body itself reports by throwing a retryable `StorageFailure`), up to
///   the store's bound, so a body must depend only on what it reads inside the transaction.
/// - Concurrent writes may share one transaction and one sync (group commit), as long as each
///   body still commits or rolls back on its own.
/// - Failures are `LedgerError`s; an engine's own errors become `.storage(StorageFailure)`,
///   with `isRetryable` and `outcomeUnknown` set as the engine knows them.
public protocol LedgerStore: Sendable {
    /// What opening the store takes: a file's path and options, a server's options.
    associatedtype Configuration: Sendable

    /// Opens the store, creating or upgrading its schema as its engine does, on threads of its
    /// own, never the caller's: opening reads a file or reaches a server, and may migrate. A
    /// database the store must not touch (another application's, a newer schema) is refused
    /// with a typed error and left as it was.
    static func open(_ configuration: Configuration) async throws(LedgerError) -> Self

    /// Runs `body` against a consistent snapshot. The reader must not escape `body`.
    func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T

    /// Runs `body` in one write transaction: all of it commits, or none of it does. The call
    /// returns after the commit, synced as `durability` asks; a thrown storage error with
    /// `outcomeUnknown` means the outcome is known only after a retry. The writer must not
    /// escape `body`.
    @discardableResult
    func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T

    /// Stamps a record finished once its platform finish is done, at `.deferred` durability.
    ///
    /// The default commits `LedgerWriter.markFinished` in a write of its own. A store may
    /// instead carry the mark into its next write transaction, which saves the mark a commit
    /// of its own, as long as every read through this store shows the mark once this call
    /// returns. A mark carried that way is lost by a process crash before that transaction,
    /// not only by power loss; either way the record stays pending and `recover()` finishes it
    /// again, which is harmless.
    func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError)

    /// Ends the store: commits what it carries (finish marks), closes its connections off the
    /// caller's thread, and releases what it holds (a file, a pool). A `read` or `write` after
    /// it fails with a storage error; a second call does nothing. A store with nothing to
    /// release keeps the default, which does nothing.
    func close() async
}

extension LedgerStore {
    /// Nothing to release.
    public func close() async {}

    /// Commits the mark in a deferred write of its own.
    public func markFinished(_ key: TransactionKey, at date: Date) async throws(LedgerError) {
        try await write(.deferred) { writer throws(LedgerError) in try writer.markFinished(key, at: date) }
    }

    /// A durable write.
    @discardableResult
    public func write<T: Sendable>(
        _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        try await write(.durable, body)
    }
}

/// What a write body throws to have its transaction rolled back and run again: a concurrent
/// writer changed what the body read (another delivery of the same purchase committed first).
public enum StoreConflict {
    /// The retryable failure a body throws when `insertTransaction` reports the key taken.
    public static func purchaseRecordedConcurrently(_ key: TransactionKey) -> LedgerError {
        // No engine failed: the body saw the key taken. The code names the rule, not an engine's code.
        .storage(
            StorageFailure(
                engine: "ledger", code: "conflict", message: "\(key) was recorded by a concurrent write", sql: nil,
                kind: .conflict))
    }
}
