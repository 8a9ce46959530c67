import FulfillmentLedger

/// One caller's body in a group commit, and the way back to that caller.
struct GroupWriteRequest: Sendable {
    /// Tells the request apart in the queue, for a caller that withdraws it (`GroupCommitter.withdraw`).
    var id: UInt64 = 0
    /// How durable the caller needs its commit to be.
    let durability: WriteDurability
    /// Runs the caller's body and keeps its value for `deliver`; called on the committer's
    /// queue only, inside the shared transaction.
    let perform: @Sendable (LedgerWriter) throws(LedgerError) -> Void
    /// Resumes the caller: nil when the body returned and the shared commit succeeded,
    /// else the error that decides its outcome. Called exactly once.
    let deliver: @Sendable (LedgerError?) -> Void
    /// Whether the body is one statement, which SQLite undoes by itself when it fails: a
    /// carried finish mark. It needs no savepoint of its own to share a transaction.
    var isOneStatement = false
}
