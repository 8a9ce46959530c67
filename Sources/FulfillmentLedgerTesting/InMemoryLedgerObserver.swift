import FulfillmentLedger
import Synchronization

/// An observer that keeps what it sees, for tests: the in-memory counterpart of
/// `LedgerObserver`, as swift-log's testing handlers are of `LogHandler`. Keeps at most
/// `observationCountMax` observations, dropping the oldest and counting what it dropped.
public final class InMemoryLedgerObserver: LedgerObserver {
    /// Default for `observationCountMax`.
    public static let observationCountMaxDefault = 10_000

    /// Most observations kept.
    public let observationCountMax: Int
    private let state = Mutex<(observations: [LedgerObservation], droppedCount: Int)>(([], 0))
    private let commits = Mutex<(committed: Int, failed: Int)>((0, 0))

    /// An empty observer keeping at most `observationCountMax` observations.
    public init(observationCountMax: Int = InMemoryLedgerObserver.observationCountMaxDefault) {
        precondition(observationCountMax >= 1, "an observer keeps at least one observation")
        self.observationCountMax = observationCountMax
    }

    /// Keeps `observation`, dropping the oldest when full.
    public func observe(_ observation: LedgerObservation) {
        state.withLock { state in
            if state.observations.count == observationCountMax {
                state.observations.removeFirst()
                state.droppedCount += 1
            }
            state.observations.append(observation)
        }
    }

    /// Counts the commit.
    public func observeCommit(durability: WriteDurability, committed: Bool, durationMicroseconds: Int64) {
        commits.withLock { counts in
            if committed { counts.committed += 1 } else { counts.failed += 1 }
        }
    }

    /// Store writes seen committed, and seen failing.
    public var commitCounts: (committed: Int, failed: Int) { commits.withLock { $0 } }

    /// What it has kept, oldest first.
    public var observations: [LedgerObservation] { state.withLock { $0.observations } }

    /// The codes of what it has kept, oldest first.
    public var codes: [String] { observations.map(\.code) }

    /// Observations dropped because it was full.
    public var droppedCount: Int { state.withLock { $0.droppedCount } }

    /// Forgets everything kept so far.
    public func removeAll() {
        state.withLock { $0 = ([], 0) }
        commits.withLock { $0 = (0, 0) }
    }
}
