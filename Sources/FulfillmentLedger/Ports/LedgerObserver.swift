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
