/// Where a `SQLiteLedgerStore`'s reads ran: on the caller's thread (the read connection was
/// free and no lock was in the way) or on the reader's queue.
public struct ReadStatistics: Sendable, Equatable {
    /// Reads answered on the caller's thread.
    public var callersThreadCount = 0
    /// Reads sent to the reader's queue: the read connection was busy with another read, or the
    /// read met a lock and runs there with the busy timeout.
    public var queuedCount = 0

    /// Counts to compare with; none by default.
    public init(callersThreadCount: Int = 0, queuedCount: Int = 0) {
        self.callersThreadCount = callersThreadCount
        self.queuedCount = queuedCount
    }
}
