import Synchronization

/// What one connection is doing, under a lock of its own: its thread changes it twice per
/// request (idle, then busy; a handler call starting, then ending), and with 32 or more
/// connection threads on a few cores one server-wide lock for that was contended on every
/// request. The server's lock is taken only for what involves the table (admitting, evicting,
/// ending, shutting down), always before this one, never inside it.
final class ConnectionActivity: Sendable {
    /// The connection's state.
    struct State {
        /// The handler call in flight on it, cancelled when shutdown's grace runs out.
        var handlerTask: Task<Void, Never>?
        /// Since when it has waited, idle, for its next request after serving one; nil while it
        /// reads or answers one, before its first, and once it is being closed.
        var idleSince: ContinuousClock.Instant?
        /// Whether it was shut to make room for a new connection at the limit.
        var isClosingIdle = false
    }

    /// The state, under its own lock.
    let state = Mutex(State())

    /// Marks the connection idle (waiting for its next request) or busy again; a connection
    /// being closed to make room stays as it is.
    func setIdle(_ idle: Bool) {
        state.withLock { state in
            guard !state.isClosingIdle else { return }
            state.idleSince = idle ? .now : nil
        }
    }

    /// Since when it has been idle, or nil when busy or closing.
    var idleSince: ContinuousClock.Instant? { state.withLock { $0.idleSince } }

    /// Marks it closing to make room, if it is still idle; whether it was.
    func closeIfIdle() -> Bool {
        state.withLock { state in
            guard state.idleSince != nil, !state.isClosingIdle else { return false }
            state.idleSince = nil
            state.isClosingIdle = true
            return true
        }
    }

    /// Whether it was shut to make room.
    var isClosingIdle: Bool { state.withLock { $0.isClosingIdle } }

    /// Records the handler call in flight (nil once it has answered).
    func setHandlerTask(_ task: Task<Void, Never>?) {
        state.withLock { $0.handlerTask = task }
    }

    /// Cancels the handler call in flight, if any.
    func cancelHandler() {
        state.withLock { $0.handlerTask }?.cancel()
    }
}
