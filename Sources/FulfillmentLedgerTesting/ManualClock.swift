import Foundation
import FulfillmentLedger
import Synchronization

/// A clock that moves only when told to, for deterministic tests and simulations.
public final class ManualClock: LedgerClock {
    private let current: Mutex<Date>

    /// Starts at `start` (default 2026-01-05 00:00 UTC, a Monday).
    public init(start: Date = Date(timeIntervalSince1970: 1_767_571_200)) {
        current = Mutex(start)
    }

    /// The current simulated time.
    public func now() -> Date { current.withLock { $0 } }

    /// Moves time forward by `seconds`.
    public func advance(seconds: TimeInterval) {
        precondition(seconds >= 0, "a manual clock never goes backwards")
        current.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    /// Sets the time.
    public func set(_ date: Date) { current.withLock { $0 = date } }
}
