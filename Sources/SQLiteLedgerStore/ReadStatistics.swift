/// The reads a `SQLiteLedgerStore` ran, each on its reader's queue.
public struct ReadStatistics: Sendable, Equatable {
    /// Reads run on the reader's queue (every read).
    public var queuedCount = 0

    /// Counts to compare with; none by default.
    public init(queuedCount: Int = 0) {
        self.queuedCount = queuedCount
    }
}
