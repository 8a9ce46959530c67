import Dispatch
import Synchronization

/// A task executor over serial Dispatch queues of its own, taken in turn: tasks that prefer it
/// run even while the concurrency pool's few threads (as many as the machine has cores) are
/// busy or blocked elsewhere in the process. Work a task hands to an actor still runs on that
/// actor's executor.
///
/// Serial queues, not one concurrent queue: libdispatch gives a serial queue a thread of its own
/// when every worker is busy, while a concurrent queue shares the workers of its global queue,
/// whose width is the core count.
package final class SerialQueuesTaskExecutor: TaskExecutor {
    /// Most queues one executor may own, so that a misconfigured count cannot exhaust threads.
    package static let queueCountMax = 64

    private let queues: [DispatchQueue]
    private let nextQueue = Atomic<Int>(0)

    /// An executor of `queueCount` serial queues named `label.N`; `queueCount` is in
    /// `1...queueCountMax`.
    package init(label: String, queueCount: Int) {
        precondition((1...Self.queueCountMax).contains(queueCount), "queueCount must be in 1...\(Self.queueCountMax)")
        queues = (0..<queueCount).map { DispatchQueue(label: "\(label).\($0)") }
    }

    /// Runs the job on the next queue in turn, with this executor as its task executor.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let turn = nextQueue.wrappingAdd(1, ordering: .relaxed).oldValue
        let queue = queues[Int(UInt(bitPattern: turn) % UInt(queues.count))]
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
