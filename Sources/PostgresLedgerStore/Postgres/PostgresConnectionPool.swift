import Dispatch
import FulfillmentLedger
import Synchronization

/// A bounded pool of PostgreSQL connections for async code.
///
/// libpq blocks its thread, so no call runs on Swift's cooperative thread pool: each of at most
/// `connectionCountMax` connections lives in a slot, an actor whose executor is a serial queue of
/// its own, and the pool runs a caller's body there. Cancelling the caller's task cancels its
/// statement (`PQcancel`). Callers beyond the connections wait in
/// a FIFO queue of at most `waiterCountMax`, each for at most `acquireTimeoutMilliseconds`; past the
/// queue's limit a caller is refused at once with `poolBusy`. A connection that failed at the
/// connection level is closed and replaced, never handed out again.
package final class PostgresConnectionPool: Sendable {
    /// Where the pool connects and its limits.
    package let configuration: PostgresPoolConfiguration
    /// Sees every statement the pool's connections send (off unless a handler is set).
    package let statementTap = PostgresStatementTap()
    private let state: Mutex<State>
    /// Runs the acquire timeouts.
    private let timerQueue = DispatchQueue(label: "FulfillmentLedger.PostgresConnectionPool.timer")

    private struct State {
        /// Slots free for use, the most recently used last (its connection is the warmest).
        var idle: [PoolSlot] = []
        /// Slots created and not closed, idle or checked out.
        var slotCount = 0
        /// Callers waiting for a slot, first come first served.
        var waiters: [Waiter] = []
        var nextWaiterID: UInt64 = 0
        var isClosed = false
        var statistics = PostgresPoolStatistics()
    }

    private struct Waiter {
        let id: UInt64
        let continuation: CheckedContinuation<Result<PoolSlot, PostgresError>, Never>
    }

    /// A pool that connects lazily, on first use of each connection.
    package init(configuration: PostgresPoolConfiguration) throws(PostgresError) {
        try configuration.validate()
        self.configuration = configuration
        state = Mutex(State())
    }

    /// A pool for a ledger store or its doctor: a configuration it refuses is the core's error
    /// (`PostgresError.ledgerError`: `.configuration` for a limit or a connection string).
    convenience init(ledger configuration: PostgresPoolConfiguration) throws(LedgerError) {
        do throws(PostgresError) { try self.init(configuration: configuration) } catch { throw error.ledgerError }
    }

    deinit {
        let slots = state.withLock { state in state.idle }
        for slot in slots { slot.closeLater() }
    }

    /// Whether `close` was called.
    package var isClosed: Bool { state.withLock { $0.isClosed } }

    /// Counters for tests and doctor reports.
    package var statistics: PostgresPoolStatistics {
        state.withLock { state in
            var statistics = state.statistics
            statistics.waiterCount = state.waiters.count
            statistics.connectionSlotCount = state.slotCount
            return statistics
        }
    }

    /// Runs `body` with a connection on that connection's own queue and returns its result; a
    /// cancelled task's body stops at its running statement or before its next one. Throws
    /// `poolBusy`, `acquireTimeout`, `poolClosed` or `cancelled` (wrapped in `E`) when no connection
    /// could be had, a `connectFailed` error when one could not be opened, or `body`'s error.
    package func withConnection<T: Sendable, E: PostgresErrorConvertible>(
        _ body: @escaping @Sendable (PostgresConnection) throws(E) -> T
    ) async throws(E) -> T {
        let slot: PoolSlot
        switch await acquire() {
        case .success(let acquired): slot = acquired
        case .failure(let error): throw E(postgresError: error)
        }
        let configuration = configuration
        let tap = statementTap
        let (result, report) = await withTaskCancellationHandler {
            await slot.use(configuration, tap: tap, body)
        } onCancel: {
            slot.cancelRunningUse()
        }
        release(slot, report: report)
        return try result.get()
    }

    /// Refuses new callers and waiters, and closes every connection (those in use when they return).
    package func close() async {
        let (slots, waiters) = state.withLock { state in
            state.isClosed = true
            defer { (state.idle, state.waiters) = ([], []) }
            state.slotCount -= state.idle.count
            return (state.idle, state.waiters)
        }
        for waiter in waiters { waiter.continuation.resume(returning: .failure(Self.closedError)) }
        for slot in slots { await slot.close() }
    }

    private static let closedError = PostgresError(kind: .poolClosed, message: "the pool is closed", statementSent: false)

    /// A free slot, a new one while fewer than `connectionCountMax` exist, or a place in the queue.
    private func acquire() async -> Result<PoolSlot, PostgresError> {
        let id = state.withLock { state in
            defer { state.nextWaiterID += 1 }
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let immediate = state.withLock { state in takeOrQueue(&state, id: id, continuation) }
                guard let immediate else {
                    scheduleTimeout(for: id)
                    return
                }
                continuation.resume(returning: immediate)
            }
        } onCancel: {
            resumeWaiter(id, with: PostgresError(kind: .cancelled, message: "the task was cancelled", statementSent: false))
        }
    }

    /// Under the lock: the immediate answer, or nil once the caller is queued.
    private func takeOrQueue(
        _ state: inout State, id: UInt64, _ continuation: CheckedContinuation<Result<PoolSlot, PostgresError>, Never>
    ) -> Result<PoolSlot, PostgresError>? {
        if state.isClosed { return .failure(Self.closedError) }
        if let slot = state.idle.popLast() { return .success(slot) }
        if state.slotCount < configuration.connectionCountMax {
            state.slotCount += 1
            state.statistics.connectionSlotsCreated += 1
            return .success(PoolSlot(label: "FulfillmentLedger.PostgresConnection.\(state.statistics.connectionSlotsCreated)"))
        }
        guard state.waiters.count < configuration.waiterCountMax else {
            state.statistics.busyRefusalCount += 1
            return .failure(
                PostgresError(
                    kind: .poolBusy,
                    message:
                        "all \(configuration.connectionCountMax) connections are in use and \(state.waiters.count) callers already wait (waiterCountMax)",
                    statementSent: false))
        }
        // Checked under the lock: a cancellation either came before (seen here) or its handler
        // runs after this waiter is queued (and finds it).
        if Task.isCancelled {
            return .failure(PostgresError(kind: .cancelled, message: "the task was cancelled", statementSent: false))
        }
        state.waiters.append(Waiter(id: id, continuation: continuation))
        return nil
    }

    private func scheduleTimeout(for id: UInt64) {
        let milliseconds = configuration.acquireTimeoutMilliseconds
        timerQueue.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [weak self] in
            self?.resumeWaiter(
                id,
                with: PostgresError(
                    kind: .acquireTimeout,
                    message: "no connection became free within \(milliseconds) ms (acquireTimeoutMilliseconds)",
                    statementSent: false))
        }
    }

    /// Fails waiter `id` with `error` if it still waits (it may have been served already).
    private func resumeWaiter(_ id: UInt64, with error: PostgresError) {
        let waiter = state.withLock { state -> Waiter? in
            guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
            if error.kind == .acquireTimeout { state.statistics.acquireTimeoutCount += 1 }
            return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: .failure(error))
    }

    /// Hands `slot` to the first waiter, back to the idle list, or closes it if the pool is closed.
    private func release(_ slot: PoolSlot, report: PoolSlot.UseReport) {
        let waiter = state.withLock { state -> Waiter?? in
            if report.opened { state.statistics.connectionOpenCount += 1 }
            if report.discarded { state.statistics.connectionDiscardCount += 1 }
            if report.cancelSent { state.statistics.cancelRequestCount += 1 }
            if state.isClosed {
                state.slotCount -= 1
                return .none
            }
            if !state.waiters.isEmpty { return .some(state.waiters.removeFirst()) }
            state.idle.append(slot)
            return .some(nil)
        }
        switch waiter {
        case .none: slot.closeLater()
        case .some(let waiter?): waiter.continuation.resume(returning: .success(slot))
        case .some(nil): break
        }
    }

    /// Records one transaction retry.
    func recordTransactionRetry() {
        state.withLock { state in state.statistics.transactionRetryCount += 1 }
    }
}

/// What a pool has done so far.
package struct PostgresPoolStatistics: Hashable, Sendable {
    /// Connection slots created (each with its own queue); at most `connectionCountMax` exist at once.
    package var connectionSlotsCreated = 0
    /// Connections opened, replacements included.
    package var connectionOpenCount = 0
    /// Connections closed because they failed or were left unusable.
    package var connectionDiscardCount = 0
    /// Cancel requests sent for a running statement whose task was cancelled (`PQcancel`).
    package var cancelRequestCount = 0
    /// Callers refused at once because the waiter queue was full.
    package var busyRefusalCount = 0
    /// Callers that gave up waiting after `acquireTimeoutMilliseconds`.
    package var acquireTimeoutCount = 0
    /// Transactions run again after a retryable failure.
    package var transactionRetryCount = 0
    /// Callers waiting now.
    package var waiterCount = 0
    /// Slots existing now.
    package var connectionSlotCount = 0
}
