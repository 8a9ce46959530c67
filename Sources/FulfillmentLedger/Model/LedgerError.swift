/// An infrastructure failure: the ledger could not do its work. Expected outcomes such as
/// rejections are values, not errors.
///
/// Numeric codes are stable and listed in Docs/ErrorCodes.md; they are never renumbered.
public enum LedgerError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file is not a database (garbage, truncated, encrypted). It was not modified.
    case notALedger(path: String, detail: String)
    /// The file is a database of another application. It was not modified.
    case foreignDatabase(path: String, applicationID: Int32)
    /// The ledger was written by a newer version of this library. It was not modified.
    case newerSchema(path: String, found: Int, supported: Int)
    /// The ledger failed its integrity check. It was not modified.
    case integrityCheckFailed(path: String, detail: String)
    /// The ledger file does not exist and the caller asked not to create it.
    case ledgerMissing(path: String)
    /// Another ledger store in this process already has this file open for writing.
    case ledgerInUse(path: String)
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

/// A storage engine error, engine-neutral so the core does not depend on SQLite.
public struct StorageFailure: Hashable, Sendable, CustomStringConvertible {
    /// The engine, such as `sqlite`.
    public var engine: String
    /// The engine's primary result code.
    public var resultCode: Int32
    /// The engine's extended result code.
    public var extendedResultCode: Int32
    /// The engine's message.
    public var message: String
    /// The statement that failed, if any.
    public var sql: String?

    /// Creates a failure.
    public init(engine: String, resultCode: Int32, extendedResultCode: Int32, message: String, sql: String?) {
        self.engine = engine
        self.resultCode = resultCode
        self.extendedResultCode = extendedResultCode
        self.message = message
        self.sql = sql
    }

    /// `sqlite error 19/2067: UNIQUE constraint failed ... (SQL: ...)`.
    public var description: String {
        var text = "\(engine) error \(resultCode)/\(extendedResultCode): \(message)"
        if let sql { text += " (SQL: \(sql))" }
        return text
    }
}
