import CLibPQ

/// Transactions, the advisory lock and the doctor's settings on one connection.
extension PostgresConnection {
    /// Runs `body` once inside `BEGIN ISOLATION LEVEL ...` ... `COMMIT`, with
    /// `SET LOCAL synchronous_commit = off` first when asked. Rolls back when `body` throws (while the
    /// connection still can) and rethrows its error. A COMMIT whose answer is lost with the
    /// connection throws `commitOutcomeUnknown`; a COMMIT that rolled back a failed transaction
    /// throws `transactionAborted`. `PostgresConnectionPool.transaction` retries this.
    package func transactionAttempt<T, E: PostgresErrorConvertible>(
        isolation: PostgresIsolationLevel, readOnly: Bool = false, synchronousCommitOff: Bool,
        _ body: (PostgresConnection) throws(E) -> T
    ) throws(E) -> T {
        guard transactionState == PQTRANS_IDLE else {
            throw E(postgresError: transactionStateError("a transaction is already open on this connection"))
        }
        do throws(PostgresError) {
            try execute(isolation.beginStatement(readOnly: readOnly))
            // LOCAL: the setting ends with the transaction, so the pooled connection returns clean.
            if synchronousCommitOff { try execute("SET LOCAL synchronous_commit = off") }
        } catch {
            rollbackIfOpen()
            throw E(postgresError: error)
        }
        let value: T
        do throws(E) {
            value = try body(self)
        } catch {
            rollbackIfOpen()
            throw error
        }
        do throws(PostgresError) { try commit() } catch {
            rollbackIfOpen()
            throw E(postgresError: error)
        }
        return value
    }

    /// Commits the open transaction, classifying what can go wrong on the way.
    private func commit() throws(PostgresError) {
        switch transactionState {
        case PQTRANS_INTRANS: break
        case PQTRANS_INERROR:
            throw PostgresError(
                kind: .transactionAborted, message: "a statement failed inside the transaction, so it cannot commit",
                sql: "COMMIT", statementSent: false)
        default:
            throw transactionStateError("the transaction body ended its own transaction")
        }
        let result: PostgresResult
        do throws(PostgresError) {
            result = try execute("COMMIT")
        } catch {
            guard error.isConnectionFailure && error.statementSent else { throw error }
            var unknown = error
            unknown.kind = .commitOutcomeUnknown
            throw unknown
        }
        // The server answers ROLLBACK, not an error, when asked to commit a failed transaction.
        guard result.commandTag == "COMMIT" else {
            throw PostgresError(
                kind: .transactionAborted, message: "the server rolled the transaction back (\(result.commandTag))",
                sql: "COMMIT")
        }
    }

    /// Rolls back if a transaction is still open; the first error is what the caller needs, so a
    /// failing ROLLBACK adds nothing (a connection it leaves broken is replaced by the pool).
    package func rollbackIfOpen() {
        guard !isBroken, transactionState == PQTRANS_INTRANS || transactionState == PQTRANS_INERROR else { return }
        _ = try? execute("ROLLBACK")
    }

    /// Takes the transaction-scoped advisory lock `key` (`pg_advisory_xact_lock`), waiting for any
    /// other holder; it is released at COMMIT or ROLLBACK. Serialises migrations across servers.
    package func lockAdvisory(key: Int64) throws(PostgresError) {
        guard transactionState == PQTRANS_INTRANS else {
            throw transactionStateError("pg_advisory_xact_lock outside a transaction would be released at once")
        }
        try query("SELECT pg_advisory_xact_lock($1::bigint)", [.integer(key)])
    }

    /// Reads the settings a doctor report shows.
    package func serverSettings() throws(PostgresError) -> PostgresServerSettings {
        let sql = """
            SELECT current_setting('synchronous_commit'), current_setting('fsync'),
                   current_setting('server_version'), current_setting('transaction_isolation')
            """
        guard let row = try queryOne(sql) else {
            throw PostgresError(kind: .unexpectedValue, message: "the settings query returned no row", sql: sql)
        }
        return PostgresServerSettings(
            synchronousCommit: try row.text(0), fsync: try row.text(1), serverVersion: try row.text(2),
            transactionIsolation: try row.text(3))
    }

    /// A `transactionState` error, sent nowhere.
    private func transactionStateError(_ message: String) -> PostgresError {
        PostgresError(kind: .transactionState, message: message, statementSent: false)
    }
}
