import Synchronization

/// A value handed from one thread to another and taken exactly once, so the sender's
/// reference is gone as soon as the receiver takes it.
final class TakeOnce<Value: Sendable>: Sendable {
    private let slot: Mutex<Value?>

    init(_ value: Value) { slot = Mutex(value) }

    /// The value, the first time; nil after.
    func take() -> Value? { slot.withLock { $0.take() } }
}
