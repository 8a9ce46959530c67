/// The plug point that sees what the ledger does, in the shape of swift-log's `LogHandler`: one
/// small protocol the ledger calls, `NoObserver` by default, and `InMemoryLedgerObserver` in the
/// testing product. A server bridges it to its own logging or metrics in a few lines
/// (Docs/Integration.md shows how for swift-log and swift-metrics).
///
/// `observe` is called on the caller's task after each fulfillment, finish attempt, revocation
/// and recovery, and for every error the ledger throws. It must return quickly and must not call
/// back into the ledger: hand slow work (a network exporter) to a queue of its own, with a limit.
public protocol LedgerObserver: Sendable {
    /// Sees one thing the ledger did.
    func observe(_ observation: LedgerObservation)

    /// Sees one store write transaction the ledger ran, committed or not, and how long the
    /// store took, in microseconds of wall time, from the call until the commit returned (with
    /// group commit: the wait for the shared transaction and its sync included). Many per
    /// fulfillment and cheap to skip, so it is not an observation: the default ignores it, and
    /// `LedgerMetrics` keeps it as the `commit` latency histogram.
    func observeCommit(durability: WriteDurability, committed: Bool, durationMicroseconds: Int64)
}

extension LedgerObserver {
    /// Ignores the commit.
    public func observeCommit(durability: WriteDurability, committed: Bool, durationMicroseconds: Int64) {}
}

/// The default observer: sees nothing.
public struct NoObserver: LedgerObserver {
    /// Creates the no-op observer.
    public init() {}

    /// Ignores the observation.
    public func observe(_ observation: LedgerObservation) {}
}

/// An observer that hands every observation to each of several, in order: logging and metrics
/// at once.
public struct CombinedLedgerObserver: LedgerObserver {
    /// Most observers combined: each runs on the caller's task for every observation.
    public static let observerCountMax = 16

    /// The observers, in the order they see each observation.
    public let observers: [any LedgerObserver]

    /// Combines `observers` (at most `observerCountMax`).
    public init(_ observers: [any LedgerObserver]) {
        precondition(observers.count <= Self.observerCountMax, "at most \(Self.observerCountMax) observers")
        self.observers = observers
    }

    /// Hands `observation` to each observer.
    public func observe(_ observation: LedgerObservation) {
        for observer in observers { observer.observe(observation) }
    }

    /// Hands the commit to each observer.
    public func observeCommit(durability: WriteDurability, committed: Bool, durationMicroseconds: Int64) {
        for observer in observers {
            observer.observeCommit(durability: durability, committed: committed, durationMicroseconds: durationMicroseconds)
        }
    }
}
