/// What a `LedgerHTTPServer` shares between its accept thread, its connection threads and its
/// callers, always under the server's mutex.
struct ServerState {
    /// Where the server is in its life.
    enum Phase {
        /// Not started.
        case created
        /// Accepting and serving.
        case running
        /// Shutting down: no longer accepting, letting requests in flight finish.
        case stopping
        /// Stopped; every socket closed or shut.
        case stopped
    }

    /// A connection being served.
    struct Connection {
        /// Its socket, shut (not closed) when shutdown's grace runs out.
        let descriptor: Int32
        /// What it is doing: idle or busy, its handler call (under its own lock).
        let activity: ConnectionActivity
    }

    /// Connections shut to make room and not yet ended.
    var closingIdleCount = 0

    /// Where the server is in its life.
    var phase = Phase.created
    /// The bound port, once started.
    var port: Int?
    /// The wake pipe, once started.
    var wake: WakePipe?
    /// Whether the accept thread still runs.
    var isAccepting = false
    /// The counters; `currentConnections` is read from `connections`.
    var statistics = LedgerHTTPServerStatistics()
    /// The connections being served, by number.
    var connections: [Int: Connection] = [:]
    /// The number the next connection gets.
    var nextConnectionNumber = 0
    /// Callers waiting for the server to stop.
    var stopWaiters: [CheckedContinuation<Void, Never>] = []

    /// The counters with the current connection count (`requestsHandled` is kept apart, in
    /// an atomic counter, and added by the server).
    var snapshot: LedgerHTTPServerStatistics {
        var snapshot = statistics
        snapshot.currentConnections = connections.count
        return snapshot
    }

    /// Marks the server stopped and hands back the waiters to resume (outside the lock).
    mutating func stop() -> [CheckedContinuation<Void, Never>] {
        phase = .stopped
        defer { stopWaiters = [] }
        return stopWaiters
    }
}
