import Dispatch

/// The executor the handler tasks prefer: a concurrent Dispatch queue of the server's own, so a
/// request is answered even while the concurrency pool's few threads are busy or blocked
/// elsewhere in the process (the pool is as wide as the machine has cores). Work the handler
/// hands to an actor still runs on that actor's executor.
final class HandlerExecutor: TaskExecutor {
    /// The one executor every server in the process shares.
    static let shared = HandlerExecutor()

    private let queue = DispatchQueue(label: "LedgerHTTPServer.handlers", attributes: .concurrent)

    /// Runs the job on the queue, with this executor as its task executor.
    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
