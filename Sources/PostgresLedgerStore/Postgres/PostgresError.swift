import FulfillmentLedger

/// An error from PostgreSQL or from this package's use of it, with the SQLSTATE, the message, the
/// SQL being run and what the caller may do about it (`isRetryable`, `outcomeUnknown`).
///
/// Messages never hold the connection string's password: connection failures are scrubbed of it.
public struct PostgresError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What failed.
    public enum Kind: String, Hashable, Sendable {
        /// The server answered the statement with an error; `sqlState` says which.
        case server
        /// No connection could be made (refused, timed out, reset): a later attempt may succeed.
        case connectFailed
        /// The server or libpq refused the connection for a reason another attempt does not change:
        /// a wrong password, a role or database that does not exist, no `pg_hba.conf` entry, an
        /// option libpq cannot read (a port that is not a number). Never retryable.
        case connectRejected
        /// The connection broke while talking to the server; `statementSent` says whether the
        /// statement may have reached it.
        case connectionLost
        /// The connection broke while COMMIT was in flight: the transaction may or may not have
        /// committed.
        case commitOutcomeUnknown
        /// The transaction had already failed (an error was caught inside it), so COMMIT rolled it
        /// back; nothing of it was kept.
        case transactionAborted
        /// The connection string is too long or libpq cannot parse it.
        case invalidConnectionString
        /// A limit or setting of the connection or pool is out of range.
        case invalidConfiguration
        /// A parameter cannot be sent (text holding a NUL byte, too many parameters).
        case invalidParameter
        /// A query returned more rows than its `rowCountMax`; none were returned.
        case rowCountExceeded
        /// A column held a value of another type than the one read, or NULL where a value was required.
        case unexpectedValue
        /// A call was made in the wrong transaction state (a nested BEGIN, a transaction lock outside
        /// a transaction, a body that ended its own transaction).
        case transactionState
        /// Every pool connection was busy and the queue of waiters was full; nothing was waited for.
        case poolBusy
        /// No pool connection became free within `acquireTimeoutMilliseconds`.
        case acquireTimeout
        /// The pool was closed.
        case poolClosed
        /// The task was cancelled: while it waited for a pool connection, before a statement
        /// was sent, or while one ran (the server was asked to cancel it, `PQcancel`).
        case cancelled
    }

    /// SQLSTATE class 08: connection exception.
    static let connectionExceptionClass = "08"
    /// Server shutdown states: admin_shutdown, crash_shutdown, cannot_connect_now.
    static let serverShutdownStates: Set<String> = ["57P01", "57P02", "57P03"]
    /// serialization_failure and deadlock_detected: the transaction was rolled back and may run again.
    static let conflictStates: Set<String> = ["40001", "40P01"]
    /// query_canceled (a statement timeout) and lock_not_available (a lock timeout): the
    /// transaction was rolled back and the next attempt may finish in time. A caller may retry;
    /// the pool does not by itself, since each attempt may take the whole timeout again.
    static let timeoutStates: Set<String> = ["57014", "55P03"]
    /// query_canceled: a statement timeout, or a cancel request.
    static let queryCanceledState = "57014"
    /// unique_violation.
    static let uniqueViolationState = "23505"
    /// SQLSTATE class 23: integrity constraint violation.
    static let integrityConstraintClass = "23"
    /// data_corrupted and index_corrupted.
    static let corruptionStates: Set<String> = ["XX001", "XX002"]
    /// PostgreSQL's names of the states this package classifies, for messages.
    static let conditionNames: [String: String] = [
        "40001": "serialization_failure", "40P01": "deadlock_detected", "23505": "unique_violation",
        "57014": "query_canceled", "55P03": "lock_not_available",
        "57P01": "admin_shutdown", "57P02": "crash_shutdown", "57P03": "cannot_connect_now",
        "08000": "connection_exception", "08003": "connection_does_not_exist", "08006": "connection_failure",
        "08001": "sqlclient_unable_to_establish_sqlconnection", "08004": "sqlserver_rejected_establishment_of_sqlconnection",
    ]

    /// What failed.
    public var kind: Kind
    /// The five-character SQLSTATE the server sent (`PG_DIAG_SQLSTATE`), if any.
    public var sqlState: String?
    /// The server's or libpq's message, or this package's.
    public var message: String
    /// The statement being run, if any.
    public var sql: String?
    /// Whether the failing statement may have reached the server (false only when it surely did not).
    public var statementSent: Bool
    /// Whether the connection was unusable after the failure (libpq's status was `CONNECTION_BAD`).
    public var connectionBroken: Bool

    /// Creates an error.
    public init(
        kind: Kind, sqlState: String? = nil, message: String, sql: String? = nil, statementSent: Bool = true,
        connectionBroken: Bool = false
    ) {
        self.kind = kind
        self.sqlState = sqlState
        self.message = message
        self.sql = sql
        self.statementSent = statementSent
        self.connectionBroken = connectionBroken
    }

    /// The error of a task cancelled before its statement was sent, or while it ran.
    static func cancelled(statementSent: Bool, sql: String? = nil) -> PostgresError {
        PostgresError(
            kind: .cancelled,
            message: statementSent ? "the task was cancelled; the server stopped its statement" : "the task was cancelled; the statement was not sent",
            sql: sql, statementSent: statementSent)
    }

    /// Whether the connection itself failed: connecting, a lost connection, SQLSTATE class 08, a
    /// server shutting down (57P01, 57P02, 57P03) or libpq reporting the connection bad. Such a
    /// connection is closed and replaced, never reused.
    public var isConnectionFailure: Bool {
        switch kind {
        case .connectFailed, .connectionLost, .commitOutcomeUnknown: return true
        // No connection was made, and another attempt would be refused the same way.
        case .connectRejected: return false
        default: break
        }
        if connectionBroken { return true }
        guard let sqlState else { return false }
        return sqlState.hasPrefix(Self.connectionExceptionClass) || Self.serverShutdownStates.contains(sqlState)
    }

    /// Whether running the same work again is safe and may succeed: a serialization failure
    /// (40001), a deadlock (40P01), a statement or lock timeout (57014, 55P03), or a connection
    /// failure before the statement was sent. A rejected connection (`connectRejected`) is not.
    public var isRetryable: Bool {
        if let sqlState, Self.conflictStates.contains(sqlState) || Self.timeoutStates.contains(sqlState) { return true }
        return isConnectionFailure && !statementSent && !outcomeUnknown
    }

    /// Whether the connection was lost while COMMIT was in flight, so the transaction may or may not
    /// have committed. Never retried automatically: the caller must find out (an idempotent retry).
    public var outcomeUnknown: Bool { kind == .commitOutcomeUnknown }

    /// Whether a unique or primary-key constraint refused the row (23505).
    public var isUniqueViolation: Bool { sqlState == Self.uniqueViolationState }

    /// Whether a whole transaction that failed with this error may run again from BEGIN: when it is
    /// retryable, or when the connection failed before COMMIT (the server rolls back a transaction
    /// whose connection is gone, so nothing of it was kept).
    /// A timeout is left to the caller.
    var allowsTransactionRetry: Bool {
        if let sqlState, Self.timeoutStates.contains(sqlState) { return false }
        return isRetryable || (isConnectionFailure && !outcomeUnknown)
    }

    /// `SQLSTATE 23505 (unique_violation)`, or the kind when the server sent no SQLSTATE.
    var headline: String {
        guard let sqlState else { return "PostgreSQL \(kind.rawValue)" }
        let name = Self.conditionNames[sqlState].map { " (\($0))" } ?? ""
        return "PostgreSQL SQLSTATE \(sqlState)\(name)"
    }

    /// `PostgreSQL SQLSTATE 23505 (unique_violation): duplicate key ... while executing `...``.
    public var description: String {
        var text = "\(headline): \(message)"
        if kind == .connectionLost { text += statementSent ? " (the statement may have reached the server)" : " (the statement was not sent)" }
        if let sql { text += " while executing `\(sql)`" }
        return text
    }

    /// The closest `LedgerError`: a bad connection string is `.configuration`, a parameter that
    /// cannot be sent is `.invalidArgument`, everything else is `.storage`: engine `postgresql`,
    /// the SQLSTATE (or the failure kind when the server sent none) as its code, and its
    /// `storageKind`, which tells a caller whether to retry and whether a commit may have landed.
    public var ledgerError: LedgerError {
        switch kind {
        case .invalidConnectionString, .invalidConfiguration: return .configuration(description)
        case .invalidParameter: return .invalidArgument(description)
        default:
            var text = "\(headline): \(message)"
            if outcomeUnknown { text += " (the transaction may or may not have committed)" }
            return .storage(
                StorageFailure(engine: "postgresql", code: sqlState ?? kind.rawValue, message: text, sql: sql, kind: storageKind))
        }
    }

    /// The engine-neutral kind: a lost COMMIT reply is `commitOutcomeUnknown`; 40001 and 40P01
    /// `conflict`; 57014 and 55P03 `timeout`; class 23 `constraint`; XX001 and XX002 `corrupt`; a
    /// rejected connection `configuration`; a full pool `busy`; any other connection failure
    /// `connectionLostBeforeCommit` (the server rolls back a transaction whose connection is gone).
    public var storageKind: StorageFailure.Kind {
        if outcomeUnknown { return .commitOutcomeUnknown }
        if let sqlState {
            if Self.conflictStates.contains(sqlState) { return .conflict }
            if Self.timeoutStates.contains(sqlState) { return .timeout }
            if sqlState.hasPrefix(Self.integrityConstraintClass) { return .constraint }
            if Self.corruptionStates.contains(sqlState) { return .corrupt }
        }
        switch kind {
        case .connectRejected: return .configuration
        case .poolBusy, .acquireTimeout: return .busy
        default: return isConnectionFailure ? .connectionLostBeforeCommit : .other
        }
    }
}
