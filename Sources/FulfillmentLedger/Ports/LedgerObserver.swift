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
}
