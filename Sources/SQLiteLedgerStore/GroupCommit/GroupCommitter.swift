import CSQLite
import Dispatch
import FulfillmentLedger
import Foundation
import Synchronization

/// Coalesces concurrent writes into shared SQLite transactions (group commit).
///
/// Callers enqueue requests and suspend. One drain at a time, on a serial dispatch queue
/// so that fsync never blocks Swift's cooperative threads, takes up to
/// `batchCountMax` waiting requests, runs them in one transaction with a savepoint each
/// (deferred ones in an unsynced transaction just before), commits once, and only then
/// resumes every caller. Requests that arrive meanwhile form the next transaction: under
/// load, many callers share one sync.
final class GroupCommitter: Sendable {
    private struct State {
        /// Requests waiting, oldest first.
        var waiting: [GroupWriteRequest] = []
        /// Whether a drain is scheduled or running; at most one is.
        var isDraining = false
        var statistics = GroupCommitStatistics()
    }

    private let state = Mutex(State())
    private let limits: GroupCommitLimits
    private let writer: LockedConnection
    /// The synchronous level configured for durable commits.
    private let durableSynchronous: SQLiteLedgerStore.Synchronous
    private let queue = DispatchQueue(label: "FulfillmentLedger.SQLiteLedgerStore.groupCommit", qos: .userInitiated)

    init(writer: LockedConnection, limits: GroupCommitLimits, durableSynchronous: SQLiteLedgerStore.Synchronous) {
        precondition(limits.isValid, "group commit limits out of range: \(limits)")
        self.writer = writer
        self.limits = limits
        self.durableSynchronous = durableSynchronous
    }

    /// The counters so far.
    var statistics: GroupCommitStatistics { state.withLock { $0.statistics } }

    /// Requests queued and not yet taken into a transaction.
    var waitingCount: Int { state.withLock { $0.waiting.count } }

    /// Queues a request, or refuses it when `queueCountMax` requests already wait.
    func enqueue(_ request: GroupWriteRequest) -> LedgerError? {
        let startDrain = state.withLock { (state: inout State) -> Bool? in
            guard state.waiting.count < limits.queueCountMax else {
                state.statistics.refusedCount += 1
                return nil
            }
            state.waiting.append(request)
            guard !state.isDraining else { return false }
            state.isDraining = true
            return true
        }
        guard let startDrain else {
            return .storage(
                SQLiteError(extendedResultCode: SQLITE_BUSY, message: "\(limits.queueCountMax) writes already wait for a group commit (queueCountMax); retry later").storageFailure)
        }
        if startDrain { queue.async { self.drain() } }
        return nil
    }

    private func record(_ outcomes: GroupCommitBatch.Outcomes, requestCount: Int) {
        state.withLock { state in
            state.statistics.transactionCount += outcomes.transactionCount
            state.statistics.syncedTransactionCount += outcomes.syncedTransactionCount
            state.statistics.requestCount += requestCount
            state.statistics.batchCountPeak = max(state.statistics.batchCountPeak, requestCount)
        }
    }

    /// Runs shared transactions until no request waits.
    private func drain() {
        while var taken = takeBatch() {
            // Deferred requests (finish marks) first, in a transaction of their own that is
            // not synced, so they never wait for the sync the durable ones need. Concurrent
            // callers expect no order between each other's requests.
            var deferred = taken.filter { $0.durability == .deferred }
            var durable = taken.filter { $0.durability == .durable }
            // Only the two halves may hold the bodies: `runAndDeliver` drops each before it
            // resumes the callers.
            taken.removeAll()
            if !deferred.isEmpty { runAndDeliver(&deferred) }
            if !durable.isEmpty { runAndDeliver(&durable) }
        }
    }

    /// Runs one batch and resumes its callers; empties `batch`.
    private func runAndDeliver(_ batch: inout [GroupWriteRequest]) {
        let outcomes = writer.mutex.withLock { connection in
            GroupCommitBatch(connection: connection, durableSynchronous: durableSynchronous).run(batch)
        }
        record(outcomes, requestCount: batch.count)
        // Drop the bodies first: they hold the callers' objects (a ledger, its store), and
        // a caller that resumes and lets go of them must not find them still alive here.
        let deliveries = batch.map(\.deliver)
        batch.removeAll()
        // Resume callers only now, after the commit: none sees a result that could still vanish.
        for (deliver, error) in zip(deliveries, outcomes.errors) { deliver(error) }
    }

    /// Takes the next batch, or ends the drain when nothing waits.
    private func takeBatch() -> [GroupWriteRequest]? {
        if limits.waitMicroseconds > 0, state.withLock({ $0.waiting.count < limits.batchCountMax }) {
            // Give concurrent callers a moment to join a transaction that is not full yet.
            usleep(UInt32(limits.waitMicroseconds))
        }
        return state.withLock { (state: inout State) -> [GroupWriteRequest]? in
            guard !state.waiting.isEmpty else {
                state.isDraining = false
                return nil
            }
            // At most queueCountMax entries move down: cheap next to a commit.
            let batch = Array(state.waiting.prefix(limits.batchCountMax))
            state.waiting.removeFirst(batch.count)
            return batch
        }
    }
}
