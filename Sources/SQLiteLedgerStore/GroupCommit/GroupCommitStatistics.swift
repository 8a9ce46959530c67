/// Counters of a store's group commits since it was opened, for tests, benchmarks and
/// operators who want to see how much sharing happens.
public struct GroupCommitStatistics: Hashable, Sendable {
    /// Shared transactions run (committed or not).
    public var transactionCount = 0
    /// Requests run in them (carried finish marks are counted below, not here).
    public var requestCount = 0
    /// Shared transactions that were synced (held at least one durable request).
    public var syncedTransactionCount = 0
    /// Most requests in one shared transaction.
    public var batchCountPeak = 0
    /// Requests refused because the queue was full.
    public var refusedCount = 0
    /// Requests withdrawn before a transaction took them, their tasks cancelled.
    public var withdrawnCount = 0
    /// Finish marks carried into a later transaction instead of committing alone.
    public var carriedFinishMarkCount = 0
    /// Carried finish marks that rode in a transaction with other requests (the rest
    /// waited out `finishMarkWaitMicrosecondsMax` and committed alone).
    public var sharedFinishMarkCount = 0
    /// Carried finish marks whose transaction failed: the record stays pending and its
    /// finish is sent again by `recover()`.
    public var lostFinishMarkCount = 0

    /// All zero.
    public init() {}

    /// Requests per transaction, on average; 0 before the first.
    public var requestsPerTransaction: Double {
        transactionCount == 0 ? 0 : Double(requestCount) / Double(transactionCount)
    }
}
