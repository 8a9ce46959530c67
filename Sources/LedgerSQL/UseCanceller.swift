import Synchronization

/// The use of a connection running now (a read, a transaction body) and the one request that
/// may stop it from another thread: how both engines stop a cancelled task's statement
/// (SQLite's `sqlite3_interrupt`, PostgreSQL's `PQcancel`). A cancellation handler runs on
/// whatever thread cancelled the task, at any moment; a request reaches only the use it was
/// made for, at most once, and never a connection closed or being replaced (`attach(nil)`).
package final class UseCanceller: Sendable {
    private struct State {
        /// Stops the statement of the attached connection, while one is attached.
        var stop: (@Sendable () -> Void)?
        /// The use running now, if any.
        var running: UInt64?
        /// Whether the running use was asked to stop.
        var isRequested = false
        /// Uses asked to stop so far.
        var requestCount = 0
    }

    private let state = Mutex(State())
    /// The running use's request, for a look without the lock: SQLite's progress handler reads
    /// it inside every statement, where one atomic load is all it may cost.
    private let requested = Atomic(false)

    /// A canceller with no connection attached.
    package init() {}

    /// Points requests at a connection (`stop` stops its running statement), or at none while
    /// it is closed or replaced. `stop` runs under the canceller's lock, so it must not block.
    package func attach(_ stop: (@Sendable () -> Void)?) {
        state.withLock { $0.stop = stop }
    }

    /// Use `id` starts, not asked to stop.
    package func begin(_ id: UInt64 = 0) {
        state.withLock { state in
            (state.running, state.isRequested) = (id, false)
            requested.store(false, ordering: .relaxed)
        }
    }

    /// The running use ended; whether it was asked to stop.
    @discardableResult
    package func end() -> Bool {
        state.withLock { state in
            defer { (state.running, state.isRequested) = (nil, false) }
            requested.store(false, ordering: .relaxed)
            return state.isRequested
        }
    }

    /// Whether the running use was asked to stop.
    package var isRequested: Bool { requested.load(ordering: .relaxed) }

    /// Asks use `id` to stop, if it is the one running, was not asked yet, and a connection is
    /// attached; any other use, or none, is left alone. Safe from any thread.
    package func request(_ id: UInt64 = 0) {
        state.withLock { state in
            guard state.running == id, !state.isRequested, let stop = state.stop else { return }
            state.isRequested = true
            state.requestCount += 1
            requested.store(true, ordering: .relaxed)
            // Under the lock, so an `attach(nil)` for a closing connection cannot overtake it.
            stop()
        }
    }

    /// Uses asked to stop so far.
    package var requestCount: Int { state.withLock { $0.requestCount } }
}
