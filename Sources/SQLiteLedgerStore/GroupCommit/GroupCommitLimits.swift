/// The named limits of group commit.
public struct GroupCommitLimits: Hashable, Sendable {
    /// Most requests coalesced into one shared transaction. More waiting requests form the
    /// next transaction, so a large backlog never makes one transaction unbounded.
    public var batchCountMax: Int = 128
    /// Most requests waiting for a shared transaction. Past it a call fails at once with a
    /// busy storage error (`SQLITE_BUSY`), to be retried, instead of queueing without end.
    public var queueCountMax: Int = 10_000
    /// How long the committer waits for more requests before starting a transaction that
    /// is not full. 0, the default, never waits: requests that arrive during one commit
    /// form the next, which already shares a sync among concurrent callers without
    /// slowing a lone caller down.
    public var waitMicroseconds: Int = 0
    /// Longest wait that may be configured: one second.
    public static let waitMicrosecondsMax = 1_000_000
    /// How long a finish mark may wait to ride in the next write transaction before it is
    /// committed alone (unsynced). Carried, the mark shares that transaction's pages instead
    /// of writing its own, and `markFinished` returns without a round trip to the writer.
    /// Reads through the store show a carried mark at once; another process sees it up to
    /// this late, and a process crash in this window loses it (the finish is then sent
    /// again). 0 commits every mark alone before `markFinished` returns. At most
    /// `finishMarkWaitMicrosecondsLimit`.
    public var finishMarkWaitMicrosecondsMax: Int = 10_000
    /// Longest finish mark wait that may be configured: one minute. Fault-injection suites use
    /// it so that a mark never commits at a moment set by the clock.
    public static let finishMarkWaitMicrosecondsLimit = 60_000_000

    /// The defaults.
    public init() {}

    /// Whether every limit is in range.
    var isValid: Bool {
        batchCountMax >= 1 && queueCountMax >= 1 && (0...Self.waitMicrosecondsMax).contains(waitMicroseconds)
            && (0...Self.finishMarkWaitMicrosecondsLimit).contains(finishMarkWaitMicrosecondsMax)
    }
}
