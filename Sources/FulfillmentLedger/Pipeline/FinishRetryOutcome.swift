/// What an operator's `Ledger.retryFinish(_:)` did: an expected outcome, never an error.
public enum FinishRetryOutcome: Hashable, Sendable {
    /// The store was told to finish the purchase and the ledger marked it finished.
    case finished(TransactionRecord)
    /// The purchase was already finished; nothing was called.
    case alreadyFinished(TransactionRecord)
    /// The store's finish failed again; the finish stays pending, with this error.
    case failed(TransactionRecord, error: String)
    /// Another call in this process is finishing it right now; nothing was called.
    case inFlightElsewhere(TransactionRecord)
    /// The ledger holds no purchase under the key.
    case notFound

    /// The outcome's stable name: `finished`, `alreadyFinished`, `failed`, `inFlightElsewhere`
    /// or `notFound`.
    public var name: String {
        switch self {
        case .finished: "finished"
        case .alreadyFinished: "alreadyFinished"
        case .failed: "failed"
        case .inFlightElsewhere: "inFlightElsewhere"
        case .notFound: "notFound"
        }
    }
}

extension Ledger {
    /// Retries the platform finish of one granted purchase now, as `recover()` would, for an
    /// operator who sees it pending (the console's "retry finish"). It never grants or takes
    /// anything: it only tells the store, and on success marks the record finished and writes a
    /// `finishSucceeded` event naming the operator; a failure is recorded like any other.
    /// With `playerID`, a purchase of another player is `.notFound`, as a page of one player
    /// must not act on another's.
    public func retryFinish(_ key: TransactionKey, ifOwnedBy playerID: String? = nil) async throws(LedgerError)
        -> FinishRetryOutcome
    {
        try checkTransactionID(key.transactionID, "key")
        guard let record = try await store.read({ reader throws(LedgerError) in try reader.transaction(key) }),
            playerID.map({ $0 == record.playerID }) ?? true
        else {
            return .notFound
        }
        guard !record.isFinished else { return .alreadyFinished(record) }
        let attempt = await finishPending(record, retry: .operatorRequest)
        if attempt.finished { return .finished(attempt.record) }
        if attempt.inFlightElsewhere { return .inFlightElsewhere(record) }
        return .failed(record, error: attempt.error ?? "not finished")
    }
}
