import Dispatch

/// The serial queues a `SQLiteLedgerStore` runs its file I/O on, each tagged with its role so
/// that a test can tell the store's own threads from the cooperative pool's
/// (`DispatchQueue.getSpecific(key: StoreQueue.roleKey)`).
package enum StoreQueue {
    /// The role of the store queue running the current code: `read`, `groupCommit`, `open` or
    /// `close`; nil anywhere else.
    package static let roleKey = DispatchSpecificKey<String>()

    /// A serial queue of `role`, tagged with it.
    static func make(_ role: String) -> DispatchQueue {
        let queue = DispatchQueue(label: "FulfillmentLedger.SQLiteLedgerStore.\(role)", qos: .userInitiated)
        queue.setSpecific(key: roleKey, value: role)
        return queue
    }

    /// Runs blocking work once on a new queue of `role` and returns its result to the awaiting task.
    static func run<T: Sendable>(_ role: String, _ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { (continuation: CheckedContinuation<T, Never>) in
            make(role).async { continuation.resume(returning: work()) }
        }
    }
}
