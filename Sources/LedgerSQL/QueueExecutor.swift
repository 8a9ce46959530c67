import Dispatch

/// A serial executor that runs every job on one dispatch queue: the executor of an actor that
/// owns a database connection. The connection's blocking calls then run on the queue's thread,
/// never on a thread of Swift's cooperative pool, and the compiler checks that nothing touches
/// the connection from anywhere else.
package final class QueueExecutor: SerialExecutor {
    /// The queue every job of the actor runs on.
    package let queue: DispatchQueue

    /// An executor over `queue`, which must be serial.
    package init(_ queue: DispatchQueue) {
        self.queue = queue
        queue.setSpecific(key: Self.ownerKey, value: ObjectIdentifier(self))
    }

    /// Tags the queue with its executor, for `isCurrent`.
    private static let ownerKey = DispatchSpecificKey<ObjectIdentifier>()

    /// Whether the calling code runs on this executor's queue, where a blocking `queue.sync`
    /// would wait for itself.
    package var isCurrent: Bool { DispatchQueue.getSpecific(key: Self.ownerKey) == ObjectIdentifier(self) }

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedSerialExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }

    package func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }

    /// Code running on the queue is isolated to the actor, even when it did not arrive as one
    /// of the actor's jobs (a dispatch block on the same queue).
    package func checkIsolated() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
