import Foundation

/// Port: the ledger's notion of now. Injected so tests and simulations control time.
public protocol LedgerClock: Sendable {
    /// The current time.
    func now() -> Date
}

/// The system wall clock.
public struct SystemClock: LedgerClock {
    /// Creates the clock.
    public init() {}

    /// `Date()`.
    public func now() -> Date { Date() }
}
