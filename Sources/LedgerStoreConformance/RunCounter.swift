import Synchronization

/// Counts the runs of a write body, which a store may run more than once.
final class RunCounter: Sendable {
    private let count = Mutex(0)

    /// Counts one more run and returns how many there have been, this one included.
    func next() -> Int { count.withLock { $0 += 1; return $0 } }

    /// How many runs there have been.
    var runs: Int { count.withLock { $0 } }
}
