/// An infrastructure failure: the ledger could not do its work. Expected outcomes such as
/// rejections are values, not errors.
///
/// Numeric codes are stable and listed in Docs/ErrorCodes.md; they are never renumbered.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The ledger is not a database (garbage, truncated, encrypted). It was not modified.
    ///
    /// `location` names the ledger in the engine's terms: a file path, or a database URL
    /// with its password left out.
    case notALedger(location: String, detail: String)
    /// The database belongs to another application. It was not modified.
    case foreignDatabase(location: String, applicationID: Int32)
    /// The ledger was written by a newer version of this library. It was not modified.
    case newerSchema(location: String, found: Int, supported: Int)
    /// The ledger failed its integrity check. It was not modified.
    case integrityCheckFailed(location: String, detail: String)
    /// The ledger does not exist and the caller asked not to create it.
    case ledgerMissing(location: String)
    /// Another ledger store in this process already has this ledger open for writing.
    case ledgerInUse(location: String)
    /// The storage engine reported an error.
    case storage(StorageFailure)
    /// The catalog failed validation; every problem found is listed.
    case catalogInvalid([CatalogProblem])
    /// The catalog file could not be read.
    case catalogUnreadable(path: String, detail: String)
    /// The ledger was constructed with an unsafe or inconsistent configuration.
    case configuration(String)
    /// An argument broke a documented limit or rule.
    case invalidArgument(String)
    /// The verifier could not reach a verdict (network, store outage); retry later.
    case verifierUnavailable(String)
    /// The platform finish port failed; the finish stays pending in the outbox.
    case finishFailed(String)
    /// The transaction-source port could not list unfinished transactions.
    case transactionSourceUnavailable(String)
    /// A fault injector failed the operation at this point (tests only).
    case injectedFault(FaultPoint)
    /// A balance or stack would leave the 64-bit range; nothing was changed.
    case amountOverflow(playerID: String, assetID: String)

    /// The stable numeric code.
    public var code: Int {
        switch self {
        case .notALedger: 1001
        case .foreignDatabase: 1002
        case .newerSchema: 1003
        case .integrityCheckFailed: 1004
        case .ledgerMissing: 1005
        case .ledgerInUse: 1006
        case .storage: 1007
        case .catalogInvalid: 2001
        case .catalogUnreadable: 2002
        case .configuration: 3001
        case .invalidArgument: 3002
        case .verifierUnavailable: 4001
        case .finishFailed: 4002
        case .transactionSourceUnavailable: 4003
        case .injectedFault: 5001
        case .amountOverflow: 6001
        }
    }

    /// The stable symbolic name of the code, such as `ledger.notALedger`.
    public var codeName: String {
        switch self {
        case .notALedger: "ledger.notALedger"
        case .foreignDatabase: "ledger.foreignDatabase"
        case .newerSchema: "ledger.newerSchema"
        case .integrityCheckFailed: "ledger.integrityCheckFailed"
        case .ledgerMissing: "ledger.missing"
        case .ledgerInUse: "ledger.inUse"
        case .storage: "ledger.storage"
        case .catalogInvalid: "catalog.invalid"
        case .catalogUnreadable: "catalog.unreadable"
        case .configuration: "config.invalid"
        case .invalidArgument: "argument.invalid"
        case .verifierUnavailable: "port.verifierUnavailable"
        case .finishFailed: "port.finishFailed"
        case .transactionSourceUnavailable: "port.transactionSourceUnavailable"
        case .injectedFault: "fault.injected"
        case .amountOverflow: "economy.amountOverflow"
        }
    }

    /// A message that says what was wrong.
    public var description: String {
        switch self {
        case .notALedger(let path, let detail): "\(path) is not a ledger database: \(detail)"
        case .foreignDatabase(let path, let id):
            "\(path) belongs to another application (application_id \(id)); refusing to touch it"
        case .newerSchema(let path, let found, let supported):
            "\(path) has schema version \(found), newer than the \(supported) this build supports"
        case .integrityCheckFailed(let path, let detail): "\(path) failed its integrity check: \(detail)"
        case .ledgerMissing(let path): "no ledger at \(path)"
        case .ledgerInUse(let path): "\(path) is already open in this process; use one store per database"
        case .storage(let failure): failure.description
        case .catalogInvalid(let problems):
            "catalog has \(problems.count) problem(s): " + problems.map(\.description).joined(separator: "; ")
        case .catalogUnreadable(let path, let detail): "cannot read catalog \(path): \(detail)"
        case .configuration(let message): "invalid configuration: \(message)"
        case .invalidArgument(let message): "invalid argument: \(message)"
        case .verifierUnavailable(let message): "verifier unavailable: \(message)"
        case .finishFailed(let message): "platform finish failed: \(message)"
        case .transactionSourceUnavailable(let message): "transaction source unavailable: \(message)"
        case .injectedFault(let point): "injected fault at \(point.rawValue)"
        case .amountOverflow(let player, let asset): "amount of \(asset) for \(player) would overflow"
        }
    }
}

/// A storage engine error, engine-neutral so the core depends on no engine: what failed, in
/// the engine's own terms, and what the caller may do about it.
public struct StorageFailure: Hashable, Sendable, CustomStringConvertible {
    /// What kind of failure it was, whatever the engine: each engine sets it from its own codes,
    /// and whether to retry follows from it alone.
    public enum Kind: String, Hashable, Sendable, Codable, CaseIterable {
        /// A constraint refused a row (a unique key, a check).
        case constraint
        /// A concurrent writer won: a serialization failure, a deadlock, or a write body's report
        /// that another delivery committed first (`StoreConflict`). Retryable.
        case conflict
        /// The database is locked by another writer, or every connection is busy. Retryable.
        case busy
        /// A statement or lock timeout: nothing was kept, and the next attempt may finish in time. Retryable.
        case timeout
        /// The connection was lost before COMMIT: the server rolled the transaction back. Retryable.
        case connectionLostBeforeCommit
        /// The connection or an I/O failure came while COMMIT was in flight: the transaction may or
        /// may not have committed. Never retried blindly; an idempotent redelivery settles it.
        case commitOutcomeUnknown
        /// The database is damaged (a corrupt page, a file that is not a database).
        case corrupt
        /// A setting another attempt does not change: a wrong password, a missing database or
        /// role, a read-only file, a path that cannot be opened.
        case configuration
        /// Anything else; not retryable.
        case other

        /// Whether running the same work again may succeed.
        public var isRetryable: Bool {
            switch self {
            case .conflict, .busy, .timeout, .connectionLostBeforeCommit: true
            case .constraint, .commitOutcomeUnknown, .corrupt, .configuration, .other: false
            }
        }
    }

    /// The engine, such as `sqlite`, `postgresql` or `memory`.
    public var engine: String
    /// The engine's code as text: an SQLite result code such as `5/517`, a PostgreSQL SQLSTATE
    /// such as `40001`.
    public var code: String
    /// The engine's message.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?
    /// What kind of failure it was; `isRetryable` and `outcomeUnknown` follow from it.
    public var kind: Kind

    /// Whether running the same work again may succeed (`Kind.isRetryable`: a conflict, a busy
    /// database, a timeout, a connection lost before COMMIT). A store's `write` retries such a
    /// body itself up to its bound; this reports what was left.
    public var isRetryable: Bool { kind.isRetryable }
    /// Whether the transaction may have committed although the call failed (a lost commit
    /// reply, a failed sync after the commit): the outcome is known only after a retry, which
    /// the ledger's idempotency keys make safe.
    public var outcomeUnknown: Bool { kind == .commitOutcomeUnknown }

    /// Creates a failure.
    public init(engine: String, code: String, message: String, sql: String?, kind: Kind) {
        self.engine = engine
        self.code = code
        self.message = message
        self.sql = sql
        self.kind = kind
    }

    /// `sqlite error 19/2067: UNIQUE constraint failed ... (SQL: ...)`.
    public var description: String {
        var text = "\(engine) error \(code): \(message)"
        if outcomeUnknown { text += " (the outcome is unknown until retried)" }
        if let sql { text += " (SQL: \(sql))" }
        return text
    }
}
