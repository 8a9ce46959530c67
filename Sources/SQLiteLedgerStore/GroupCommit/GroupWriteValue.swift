import FulfillmentLedger
import Synchronization

/// Carries a group-commit body's value from the committer's queue to its caller.
final class GroupWriteValue<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)

    /// Keeps the body's value; the commit has not happened yet.
    func set(_ newValue: T) { value.withLock { $0 = newValue } }

    /// The caller's result once the commit is decided: the value if the body returned and
    /// the commit succeeded, else the error.
    func result(_ error: LedgerError?) -> Result<T, LedgerError> {
        if let error { return .failure(error) }
        guard let stored = value.withLock({ $0 }) else {
            preconditionFailure("a group write committed without running its body")
        }
        return .success(stored)
    }
}
