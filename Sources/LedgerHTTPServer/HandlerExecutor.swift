import Dispatch
import Synchronization

/// The executor the handler tasks prefer: serial Dispatch queues of the server's own, taken in
/// turn, so a request is answered even while the concurrency pool's few threads are busy or
/// blocked elsewhere in the process (the pool is as wide as the machine has cores). Work the
/// handler hands to an actor still runs on that actor's executor.
///
/// Serial queues, not one concurrent queue: libdispatch gives a serial queue a thread of its own
/// when every worker is busy, while a concurrent queue shares the workers of its global queue,
/// whose width is the core count, so work blocked elsewhere could hold every handler back (seen
/// as loopback servers answering nothing for 30 s while the test suites ran beside them).
final class HandlerExecutor: TaskExecutor {
    /// The one executor every server in the process shares.
    static let shared = HandlerExecutor()

    /// Handler jobs that may run at once, one per queue.
    static let queueCountMax = 16

    private let queues = (0..<HandlerExecutor.queueCountMax).map { DispatchQueue(label: "LedgerHTTPServer.handlers.\($0)") }
    private let nextQueue = Atomic<Int>(0)

    /// Runs the job on the next queue in turn, with this executor as its task executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let turn = nextQueue.wrappingAdd(1, ordering: .relaxed).oldValue
        let queue = queues[Int(UInt(bitPattern: turn) % UInt(queues.count))]
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
