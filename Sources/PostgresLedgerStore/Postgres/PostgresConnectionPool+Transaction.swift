import FulfillmentLedger

/// Transactions with retries, the migration lock and the doctor's settings, through the pool.
extension PostgresConnectionPool {
    /// Default for a transaction's `retryCountMax`.
    package static let transactionRetryCountMaxDefault = 8
    /// Largest `retryCountMax` accepted.
    package static let transactionRetryCountMaxLimit = 100
    /// The first retry waits up to this long (a random share of it, so that two transactions that
    /// conflicted do not meet again in step); each further retry doubles it.
    package static let retryBackoffMillisecondsBase = 2
    /// No retry waits longer than this.
    package static let retryBackoffMillisecondsMax = 64

    /// Runs `body` in a transaction at `isolation` on a pool connection (synchronously, on the
    /// connection's queue) and commits. When the attempt fails with a serialization failure, a
    /// deadlock or a connection failure before COMMIT, the whole transaction runs again from BEGIN,
    /// on a fresh connection when the old one failed, after a short random backoff, at most
    /// `retryCountMax` more times; `body` must therefore have no effects outside the transaction.
    /// A COMMIT whose answer was lost throws `commitOutcomeUnknown` and is never retried here.
    /// A failure to connect is retried only until the pool's connect timeout has passed since the
    /// first attempt, so that one timeout bounds the whole wait for a server.
    ///
    /// With `readOnly` the server refuses any write in the transaction. With `synchronousCommitOff`, `SET LOCAL synchronous_commit = off` makes this COMMIT return
    /// before its WAL is flushed: a server crash can lose it, though never half of it.
    package func transaction<T: Sendable, E: PostgresErrorConvertible>(
        isolation: PostgresIsolationLevel, readOnly: Bool = false, synchronousCommitOff: Bool = false,
        retryCountMax: Int = PostgresConnectionPool.transactionRetryCountMaxDefault,
        _ body: @escaping @Sendable (PostgresConnection) throws(E) -> T
    ) async throws(E) -> T {
        guard (0...Self.transactionRetryCountMaxLimit).contains(retryCountMax) else {
            throw E(
                postgresError: PostgresError(
                    kind: .invalidConfiguration,
                    message: "retryCountMax must be 0 to \(Self.transactionRetryCountMaxLimit), not \(retryCountMax)",
                    statementSent: false))
        }
        let policy = WriteRetryPolicy(
            retryCountMax: retryCountMax, pauseMillisecondsBase: Self.retryBackoffMillisecondsBase,
            pauseMillisecondsMax: Self.retryBackoffMillisecondsMax, jitter: true)
        // Connecting, retries included, takes at most the connect timeout in all: against a server
        // that accepts and never answers, each attempt would wait the whole timeout again.
        let connectDeadline = ContinuousClock.now + .seconds(configuration.connectTimeoutSeconds)
        return try await policy.run(retryable: { (error: E) -> Bool in
            guard let failure = error.postgresError, failure.allowsTransactionRetry else { return false }
            guard failure.kind != .connectFailed || ContinuousClock.now < connectDeadline else { return false }
            recordTransactionRetry()
            return true
        }) { () async throws(E) -> T in
            try await withConnection { (connection) throws(E) -> T in
                try connection.transactionAttempt(
                    isolation: isolation, readOnly: readOnly, synchronousCommitOff: synchronousCommitOff, body)
            }
        }
    }

    /// Runs `body` in a transaction that first takes the advisory lock `key`
    /// (`pg_advisory_xact_lock`), so that servers migrating one database run one at a time; the lock
    /// is released when the transaction ends. Retried as `transaction` is.
    package func withAdvisoryLock<T: Sendable, E: PostgresErrorConvertible>(
        key: Int64, isolation: PostgresIsolationLevel = .readCommitted,
        retryCountMax: Int = PostgresConnectionPool.transactionRetryCountMaxDefault,
        _ body: @escaping @Sendable (PostgresConnection) throws(E) -> T
    ) async throws(E) -> T {
        try await transaction(isolation: isolation, retryCountMax: retryCountMax) { (connection) throws(E) -> T in
            do throws(PostgresError) { try connection.lockAdvisory(key: key) } catch { throw E(postgresError: error) }
            return try body(connection)
        }
    }

    /// Reads `synchronous_commit`, `fsync`, `server_version` and `transaction_isolation` for a
    /// doctor report.
    package func serverSettings() async throws(PostgresError) -> PostgresServerSettings {
        try await withConnection { (connection) throws(PostgresError) in try connection.serverSettings() }
    }
}
