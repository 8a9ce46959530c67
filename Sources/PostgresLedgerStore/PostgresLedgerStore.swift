import FulfillmentLedger
import LedgerSQL
import Foundation

/// The ledger store for a fleet of game servers: one PostgreSQL database that every server
/// process shares, exactly once across all of them.
///
/// Every write runs at `SERIALIZABLE`: the server fails one of two transactions that could not
/// have run one after the other (SQLSTATE 40001, or a deadlock, 40P01), and the store runs the
/// whole body again, from BEGIN, at most `transactionRetryCountMax` times with a short random
/// backoff. Reads run at `REPEATABLE READ READ ONLY`: one snapshot, never blocking a writer.
/// Blocking libpq calls run on the pool's own threads, never on a cooperative one.
///
/// Opening migrates the schema once, under an advisory lock, and refuses, untouched, a newer
/// schema or a database holding another application's tables.
public final class PostgresLedgerStore: LedgerStore {
    /// The database as errors and reports name it: the connection string without its password.
    public let location: String
    let pool: PostgresConnectionPool
    private let options: Options

    /// The schema version this build writes; a ledger opened by it is migrated to this version.
    public static var schemaVersion: Int { PostgresLedgerSchema.versionSupported }

    /// Connects, checks the database and migrates it to `schemaVersion`. Throws
    /// `.configuration` for a bad connection string or limits, `.storage` when the server cannot
    /// be reached, `.ledgerMissing` for an empty database when `createIfMissing` is false,
    /// `.notALedger` or `.newerSchema` for a database it must not touch.
    public init(options: Options) async throws(LedgerError) {
        guard (0...PostgresConnectionPool.transactionRetryCountMaxLimit).contains(options.transactionRetryCountMax),
            (0...Options.conflictRetryCountMaxLimit).contains(options.conflictRetryCountMax)
        else {
            throw LedgerError.configuration(
                "transactionRetryCountMax must be 0 to \(PostgresConnectionPool.transactionRetryCountMaxLimit) and "
                    + "conflictRetryCountMax 0 to \(Options.conflictRetryCountMaxLimit)")
        }
        pool = try PostgresConnectionPool(ledger: options.pool)
        self.options = options
        let location = options.pool.connectionString.description
        self.location = location
        let createIfMissing = options.createIfMissing
        do throws(TransactionFailure) {
            _ = try await pool.withAdvisoryLock(key: PostgresLedgerSchema.migrationLockKey) {
                (connection) throws(TransactionFailure) -> Int in
                // Run as any body is, so a connection lost during the check runs it again.
                let session = PostgresLedgerSession(connection: connection, location: location)
                return try Self.run(
                    { (_: LedgerWriter) throws(LedgerError) -> Int in
                        try PostgresLedgerSchema.migrate(session, createIfMissing: createIfMissing)
                    }, on: session)
            }
        } catch {
            await pool.close()
            throw error.ledgerError
        }
    }

    /// `init(options:)` through the store port: its `Configuration` is `Options`.
    public static func open(_ options: Options) async throws(LedgerError) -> PostgresLedgerStore {
        try await PostgresLedgerStore(options: options)
    }

    /// Sees every statement the store's connections send, once a handler is set: how the
    /// benchmark records the statements of one fulfillment for its raw baseline.
    package var statementTap: PostgresStatementTap { pool.statementTap }

    /// The pool's counters so far: connections opened and discarded, waits, transactions run again.
    package var poolStatistics: PostgresPoolStatistics { pool.statistics }

    /// Closes every connection; a call after this fails with a storage error (`poolClosed`).
    public func close() async { await pool.close() }

    deinit {
        // Only a check (`UnclosedStoreCheck`): the pool, let go with the store, hands its idle
        // connections to their own queues to close, and nothing waits here.
        if !pool.isClosed { UnclosedStoreCheck.report(engine: "PostgreSQL", location: location) }
    }

    /// The server's settings that bear on durability and isolation, for a doctor report.
    public func serverSettings() async throws(LedgerError) -> PostgresServerSettings {
        do throws(PostgresError) { return try await pool.serverSettings() } catch { throw error.ledgerError }
    }

    /// Runs `body` in a `REPEATABLE READ READ ONLY` transaction on a pool connection.
    public func read<T: Sendable>(
        _ body: @escaping @Sendable (LedgerReader) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let location = self.location
        do throws(TransactionFailure) {
            return try await pool.transaction(
                isolation: .repeatableRead, readOnly: true, retryCountMax: options.transactionRetryCountMax
            ) { (connection) throws(TransactionFailure) -> T in
                try Self.run(body, on: PostgresLedgerSession(connection: connection, location: location))
            }
        } catch {
            throw error.ledgerError
        }
    }

    /// Runs `body` in one `SERIALIZABLE` transaction and commits; `.deferred` commits with
    /// `synchronous_commit = off` (a server crash may lose the commit, never half of it). A
    /// serialization failure, a deadlock or a connection lost before COMMIT runs the body again
    /// from BEGIN; so does a body that reports a concurrent write (`StoreConflict`). A COMMIT
    /// whose answer was lost throws a storage error with `outcomeUnknown`, never retried here.
    @discardableResult
    public func write<T: Sendable>(
        _ durability: WriteDurability, _ body: @escaping @Sendable (LedgerWriter) throws(LedgerError) -> T
    ) async throws(LedgerError) -> T {
        let location = self.location
        let conflictRetry = WriteRetryPolicy(
            retryCountMax: options.conflictRetryCountMax, pauseMillisecondsBase: PostgresConnectionPool.retryBackoffMillisecondsBase,
            pauseMillisecondsMax: PostgresConnectionPool.retryBackoffMillisecondsMax, jitter: true)
        // A failure the pool already retried as a whole transaction arrives here as the core's
        // error; what is retried here is the body's own report of a concurrent write.
        return try await conflictRetry.run { () async throws(LedgerError) -> T in
            do throws(TransactionFailure) {
                return try await pool.transaction(
                    isolation: .serializable, synchronousCommitOff: durability == .deferred,
                    retryCountMax: options.transactionRetryCountMax
                ) { (connection) throws(TransactionFailure) -> T in
                    try Self.run(body, on: PostgresLedgerSession(connection: connection, location: location))
                }
            } catch {
                throw error.ledgerError
            }
        }
    }

    /// Runs a body, a write's or a read's, on a session. A PostgreSQL failure that lets the whole
    /// transaction run again goes to the pool as itself, so the pool retries it, and so does a
    /// cancelled statement, so the pool can tell a cancel request's answer from a statement
    /// timeout's (both 57014); anything else goes as the body's error.
    private static func run<T>(
        _ body: (LedgerWriter) throws(LedgerError) -> T, on session: PostgresLedgerSession
    ) throws(TransactionFailure) -> T {
        do throws(LedgerError) {
            return try body(session.ledger)
        } catch {
            if let failure = session.firstFailure,
                failure.allowsTransactionRetry || failure.kind == .cancelled || failure.sqlState == PostgresError.queryCanceledState
            {
                throw .postgres(failure)
            }
            throw .ledger(error)
        }
    }
}

/// What a transaction body run by the store throws: a PostgreSQL failure the pool may retry,
/// or the body's own error.
enum TransactionFailure: PostgresErrorConvertible {
    case postgres(PostgresError)
    case ledger(LedgerError)

    init(postgresError: PostgresError) { self = .postgres(postgresError) }

    var postgresError: PostgresError? {
        if case .postgres(let error) = self { return error }
        return nil
    }

    /// The error the store's caller sees.
    var ledgerError: LedgerError {
        switch self {
        case .postgres(let error): error.ledgerError
        case .ledger(let error): error
        }
    }
}
