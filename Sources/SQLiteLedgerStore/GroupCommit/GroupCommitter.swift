import CSQLite
import Dispatch
import FulfillmentLedger
import LedgerSQL
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
        /// Finish marks waiting for the next transaction, oldest first.
        var carried: [CarriedFinishMark] = []
        /// Every carried mark not yet committed or lost: `carried` and those in a running transaction.
        var unsettled = UnsettledFinishMarks.none
        /// Whether the oldest carried mark has waited its time, so a drain commits the marks alone.
        var carriedAreDue = false
        /// Whether a wake-up for the carried marks is scheduled; at most one is.
        var isCarryTimerSet = false
        /// Set by `close`: nothing more is taken for the writer.
        var isClosed = false
        /// Set by `close` once its last transaction ran, under the writer's lock: the store then
        /// closes the connection, so a drain that took a batch just before must not touch it.
        var isWriterReleased = false
        /// Signalled when the running drain stops, for a `close` waiting for it.
        var drainEnded: DispatchSemaphore?
    }

    /// What one turn of the drain runs.
    private struct Batch {
        var requests: [GroupWriteRequest]
        var marks: [CarriedFinishMark]
    }

    private let state = Mutex(State())
    private let limits: GroupCommitLimits
    private let writer: LockedConnection
    /// The synchronous level configured for durable commits.
    private let durableSynchronous: SQLiteLedgerStore.Synchronous
    private let queue = StoreQueue.make("groupCommit")

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
        var closed = false
        let startDrain = state.withLock { (state: inout State) -> Bool? in
            guard !state.isClosed else {
                closed = true
                return nil
            }
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
            if closed { return GroupCommitBatch.Outcomes.closed(count: 1).errors[0] }
            return SQLiteError(extendedResultCode: SQLITE_BUSY, message: "\(limits.queueCountMax) writes already wait for a group commit (queueCountMax); retry later").ledgerError
        }
        if startDrain { queue.async { self.drain() } }
        return nil
    }

    /// Takes a request out of the queue before a transaction took it and answers it with
    /// `cancelled`; false when it is no longer waiting (it runs, or ran, to its end).
    @discardableResult
    func withdraw(_ id: UInt64) -> Bool {
        let withdrawn = state.withLock { (state: inout State) -> GroupWriteRequest? in
            guard let index = state.waiting.firstIndex(where: { $0.id == id }) else { return nil }
            state.statistics.withdrawnCount += 1
            return state.waiting.remove(at: index)
        }
        withdrawn?.deliver(Self.cancelled)
        return withdrawn != nil
    }

    /// Counts a write whose task was cancelled before it reached the queue, and answers it
    /// as withdrawn: it is never queued, so a writer freed meanwhile cannot take it.
    func withdrawBeforeQueueing() -> LedgerError {
        state.withLock { $0.statistics.withdrawnCount += 1 }
        return Self.cancelled
    }

    /// The answer of a write withdrawn because its task was cancelled: not retryable, and
    /// nothing of it ran.
    static let cancelled = SQLiteError.cancelled("the task was cancelled before its write ran; nothing was written")

    private func record(_ outcomes: GroupCommitBatch.Outcomes, requestCount: Int) {
        state.withLock { state in
            state.statistics.transactionCount += outcomes.transactionCount
            state.statistics.syncedTransactionCount += outcomes.syncedTransactionCount
            state.statistics.requestCount += requestCount
            state.statistics.batchCountPeak = max(state.statistics.batchCountPeak, requestCount)
        }
    }

    /// The carried marks not yet settled, for a read to lay over the snapshot it is about to
    /// start. Copying it is cheap: the dictionary is shared until the committer next changes it.
    var unsettledFinishMarks: UnsettledFinishMarks { state.withLock { $0.unsettled } }

    /// Carries a finish mark into the next transaction; false, carrying nothing, when carrying
    /// is off, the store is closed, or `queueCountMax` marks already wait (the caller then
    /// commits the mark alone).
    func carry(_ key: TransactionKey, finishedAtMilliseconds: Int64) -> Bool {
        guard limits.finishMarkWaitMicrosecondsMax > 0 else { return false }
        let mark = CarriedFinishMark(key: key, finishedAtMilliseconds: finishedAtMilliseconds, carriedAt: .now())
        let (carried, startDrain, setTimer) = state.withLock { (state: inout State) -> (Bool, Bool, Bool) in
            guard !state.isClosed, state.carried.count < limits.queueCountMax else { return (false, false, false) }
            // A mark already on its way for this record stamps it first; this one adds nothing.
            guard state.unsettled.insert(mark.key, finishedAtMilliseconds: mark.finishedAtMilliseconds) else { return (true, false, false) }
            state.carried.append(mark)
            state.statistics.carriedFinishMarkCount += 1
            if state.carried.count >= limits.batchCountMax { state.carriedAreDue = true }
            let startDrain = state.carriedAreDue && !state.isDraining
            if startDrain { state.isDraining = true }
            let setTimer = !state.isCarryTimerSet
            if setTimer { state.isCarryTimerSet = true }
            return (true, startDrain, setTimer)
        }
        if startDrain { queue.async { self.drain() } }
        if setTimer { setCarryTimer(after: limits.finishMarkWaitMicrosecondsMax) }
        return carried
    }

    /// Wakes up when the oldest carried mark has waited its time, and commits the marks if no
    /// other transaction took them meanwhile.
    private func setCarryTimer(after microseconds: Int) {
        // Weak: a closed store's committer need not live until a long wait runs out.
        queue.asyncAfter(deadline: .now() + .microseconds(microseconds)) { [weak self] in self?.carryTimerFired() }
    }

    private func carryTimerFired() {
        let waitNanoseconds = UInt64(limits.finishMarkWaitMicrosecondsMax) * 1_000
        let (startDrain, rearmMicroseconds) = state.withLock { (state: inout State) -> (Bool, Int?) in
            guard let oldest = state.carried.first, !state.isClosed else {
                state.isCarryTimerSet = false
                return (false, nil)
            }
            // Read under the lock, so no mark carried since can be younger than "now".
            let now = DispatchTime.now().uptimeNanoseconds
            let waitedNanoseconds = now - min(now, oldest.carriedAt.uptimeNanoseconds)
            guard waitedNanoseconds >= waitNanoseconds else {
                // The marks this timer was set for rode in a transaction; a later one waits on.
                return (false, Int((waitNanoseconds - waitedNanoseconds) / 1_000) + 1)
            }
            state.isCarryTimerSet = false
            state.carriedAreDue = true
            guard !state.isDraining else { return (false, nil) }
            state.isDraining = true
            return (true, nil)
        }
        if let rearmMicroseconds { setCarryTimer(after: rearmMicroseconds) }
        if startDrain { drain() }
    }

    /// Longest `close` waits for a drain in progress to finish its turn.
    static let closeDrainWaitMillisecondsMax = 10_000

    /// Commits the carried marks and refuses any more: the store is closing. Runs on the
    /// caller's thread. A drain in progress (one the carry timer started, holding marks it
    /// took just before) finishes its turn first, so its marks commit too.
    func close() {
        let drainEnded = state.withLock { (state: inout State) -> DispatchSemaphore? in
            state.isClosed = true
            guard state.isDraining else { return nil }
            let semaphore = DispatchSemaphore(value: 0)
            state.drainEnded = semaphore
            return semaphore
        }
        if let drainEnded {
            _ = drainEnded.wait(timeout: .now() + .milliseconds(Self.closeDrainWaitMillisecondsMax))
        }
        // Taken after the drain's turn: it may have carried again the marks of a request that failed.
        let marks = state.withLock { (state: inout State) -> [CarriedFinishMark] in
            defer { state.carried.removeAll() }
            return state.carried
        }
        if !marks.isEmpty {
            var batch = Batch(requests: [], marks: marks)
            runAndDeliver(&batch)
        }
        // Past the wait a drain may still hold a batch: it must find the writer released.
        writer.mutex.withLock { _ in state.withLock { $0.isWriterReleased = true } }
    }

    /// Refuses any more work and drops the carried marks, without waiting or writing: the
    /// store was let go without `close()` (`UnclosedStoreCheck`). No caller waits here (a write
    /// in flight keeps its store alive), so only carried marks are dropped, counted as lost; a
    /// drain already running finishes its turn on its own queue.
    func abandon() {
        state.withLock { (state: inout State) in
            state.isClosed = true
            state.isWriterReleased = true
            state.statistics.lostFinishMarkCount += state.carried.count
            for mark in state.carried { state.unsettled.remove(mark.key) }
            state.carried.removeAll()
        }
    }

    /// Runs shared transactions until no request waits.
    private func drain() {
        while var taken = takeBatch() {
            // Deferred requests (failed finish attempts) first, in a transaction of their own
            // that is not synced, so they never wait for the sync the durable ones need.
            // Carried finish marks ride in the first of the two, so every request taken with
            // them sees them; in the steady state that is the durable one, whose pages they
            // share, and no caller waits for them. Concurrent callers expect no order between
            // each other's requests.
            var deferred = Batch(requests: taken.requests.filter { $0.durability == .deferred }, marks: [])
            var durable = Batch(requests: taken.requests.filter { $0.durability == .durable }, marks: [])
            if durable.requests.isEmpty || !deferred.requests.isEmpty { deferred.marks = taken.marks } else { durable.marks = taken.marks }
            // Only the two halves may hold the bodies: `runAndDeliver` drops each before it
            // resumes the callers.
            taken.requests.removeAll()
            if !deferred.requests.isEmpty || !deferred.marks.isEmpty { runAndDeliver(&deferred) }
            if !durable.requests.isEmpty { runAndDeliver(&durable) }
        }
    }

    /// Runs one batch and resumes its callers; empties `batch`.
    private func runAndDeliver(_ batch: inout Batch) {
        let marks = batch.marks.map { mark in
            GroupWriteRequest(
                durability: .deferred,
                perform: { writer throws(LedgerError) in
                    try writer.markFinished(mark.key, at: Date(ledgerMilliseconds: mark.finishedAtMilliseconds))
                },
                deliver: { _ in }, isOneStatement: true)
        }
        var requests = marks + batch.requests
        let outcomes = writer.mutex.withLock { connection in
            // Only carried marks can be in a batch taken just before the store closed (a request
            // keeps its store open): they are lost, as in a crash, and `recover()` finishes again.
            guard !state.withLock({ $0.isWriterReleased }) else { return GroupCommitBatch.Outcomes.closed(count: requests.count) }
            return GroupCommitBatch(connection: connection, durableSynchronous: durableSynchronous).run(requests)
        }
        // Marks are counted on their own (`carriedFinishMarkCount`), not as requests.
        record(outcomes, requestCount: batch.requests.count)
        settle(batch.marks, outcomes: outcomes, shared: !batch.requests.isEmpty)
        // Drop the bodies first: they hold the callers' objects (a ledger, its store), and
        // a caller that resumes and lets go of them must not find them still alive here.
        let deliveries = batch.requests.map(\.deliver)
        requests.removeAll()
        batch.requests.removeAll()
        // Resume callers only now, after the commit: none sees a result that could still vanish.
        for (deliver, error) in zip(deliveries, outcomes.errors.dropFirst(marks.count)) { deliver(error) }
    }

    /// Takes carried marks out of the overlay once their transaction ended: committed, a read's
    /// snapshot holds them; lost, the record reads as pending again. Marks rolled back with the
    /// request they rode with are carried again, oldest first, and wait out their time.
    private func settle(_ marks: [CarriedFinishMark], outcomes: GroupCommitBatch.Outcomes, shared: Bool) {
        guard !marks.isEmpty else { return }
        let carriedAgain = Set(outcomes.carriedAgain)
        let setTimer = state.withLock { (state: inout State) -> Bool in
            var again: [CarriedFinishMark] = []
            for (index, mark) in marks.enumerated() {
                if carriedAgain.contains(index) {
                    again.append(mark)
                    continue
                }
                state.unsettled.remove(mark.key)
                if outcomes.errors[index] != nil { state.statistics.lostFinishMarkCount += 1 }
                if outcomes.errors[index] == nil, shared { state.statistics.sharedFinishMarkCount += 1 }
            }
            guard !again.isEmpty else { return false }
            state.carried.insert(contentsOf: again, at: 0)
            guard !state.isCarryTimerSet, !state.isClosed else { return false }
            state.isCarryTimerSet = true
            return true
        }
        if setTimer { setCarryTimer(after: limits.finishMarkWaitMicrosecondsMax) }
    }

    /// Takes the next batch, or ends the drain when nothing waits. Carried marks go along with
    /// any request, and alone only once they are due: a drain that just resumed a caller must
    /// not commit that caller's mark alone before its next write can carry it.
    private func takeBatch() -> Batch? {
        if limits.waitMicroseconds > 0, state.withLock({ $0.waiting.count < limits.batchCountMax }) {
            // Give concurrent callers a moment to join a transaction that is not full yet.
            usleep(UInt32(limits.waitMicroseconds))
        }
        return state.withLock { (state: inout State) -> Batch? in
            let marksReady = state.carriedAreDue && !state.carried.isEmpty
            guard !state.isClosed, !state.waiting.isEmpty || marksReady else {
                state.isDraining = false
                state.drainEnded?.signal()
                state.drainEnded = nil
                return nil
            }
            // At most queueCountMax entries move down: cheap next to a commit.
            let requests = Array(state.waiting.prefix(limits.batchCountMax))
            state.waiting.removeFirst(requests.count)
            let marks = Array(state.carried.prefix(limits.batchCountMax))
            state.carried.removeFirst(marks.count)
            if state.carried.isEmpty { state.carriedAreDue = false }
            return Batch(requests: requests, marks: marks)
        }
    }
}
