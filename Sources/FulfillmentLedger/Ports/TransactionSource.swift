/// Port: lists transactions the platform still holds as unfinished, so recovery can
/// re-submit them through the normal pipeline.
public protocol TransactionSource: Sendable {
    /// Up to `limit` unfinished transactions.
    func unfinishedTransactions(limit: Int) async throws(LedgerError) -> [TransactionSubmission]
}

/// A transaction source with nothing to report, for servers that receive transactions
/// only by push.
public struct NoTransactionSource: TransactionSource {
    /// Creates the empty source.
    public init() {}

    /// Always empty.
    public func unfinishedTransactions(limit: Int) async throws(LedgerError) -> [TransactionSubmission] { [] }
}
