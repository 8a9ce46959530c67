import Foundation
import LedgerHTTP
import Synchronization

/// A small, bounded HTTP/1.1 server on POSIX sockets that answers every request with one
/// handler. It knows nothing of what it serves: the handler gets a `LedgerHTTPRequest` and
/// gives a `LedgerHTTPResponse`; the server reads, frames and writes them within its
/// `LedgerHTTPServerLimits`, answers malformed, oversized, slow and excess requests itself
/// (never calling the handler), and shuts down gracefully. One thread accepts; each connection
/// is served on a thread of its own, at most `connectionCountMax` of them.
///
/// ```swift
/// let server = LedgerHTTPServer(configuration: .init(port: 8080)) { request in
///     .text(200, "hello \(request.path)")
/// }
/// let port = try server.start()
/// await server.runUntilSignalled()   // returns after SIGTERM or SIGINT and a graceful shutdown
/// ```
public final class LedgerHTTPServer: Sendable {
    /// What answers each request.
    public typealias Handler = @Sendable (LedgerHTTPRequest) async -> LedgerHTTPResponse

    /// Where the server listens and the limits it keeps.
    public let configuration: LedgerHTTPServerConfiguration
    /// The handler.
    let handler: Handler
    /// Everything the threads share.
    let state = Mutex(ServerState())
    /// Requests that reached the handler, counted without the server's lock (every request
    /// adds one).
    let requestsHandledCount = Atomic<Int>(0)
    /// Whether shutdown has begun: read by every connection after every request, so kept
    /// apart from the lock (set under it, with the phase).
    let shuttingDown = Atomic<Bool>(false)

    /// A server for `configuration` that answers with `handler`; nothing is bound until `start()`.
    public init(configuration: LedgerHTTPServerConfiguration = LedgerHTTPServerConfiguration(), handler: @escaping Handler) {
        self.configuration = configuration
        self.handler = handler
    }

    /// Binds and listens, starts accepting on a thread of its own, and returns the bound port
    /// (the system's choice when the configuration asks for port 0). A server starts once.
    @discardableResult
    public func start() throws(LedgerHTTPServerError) -> Int {
        let invalid = configuration.limits.invalidNames
        guard invalid.isEmpty else {
            throw .invalidConfiguration("limits must be positive: \(invalid.joined(separator: ", "))")
        }
        let (listener, wake) = try state.withLock { state throws(LedgerHTTPServerError) -> (ListeningSocket, WakePipe) in
            guard state.phase == .created else { throw .alreadyStarted }
            guard let wake = WakePipe() else { throw .socket(operation: "pipe", errorNumber: errno) }
            let listener = try ListeningSocket.open(host: configuration.host, port: configuration.port)
            state.phase = .running
            state.port = listener.port
            state.wake = wake
            state.isAccepting = true
            return (listener, wake)
        }
        let thread = Thread { [self] in acceptLoop(listener: listener.descriptor, wake: wake) }
        thread.name = "LedgerHTTPServer accept"
        thread.start()
        return listener.port
    }

    /// The bound port once started, else nil.
    public var port: Int? { state.withLock { $0.port } }

    /// The counters now.
    public var statistics: LedgerHTTPServerStatistics {
        var snapshot = state.withLock { $0.snapshot }
        snapshot.requestsHandled = requestsHandledCount.load(ordering: .relaxed)
        return snapshot
    }

    /// Whether shutdown has begun (or the server has stopped).
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .acquiring) }

    /// Stops accepting (the listening socket is closed, so new connections are refused), closes
    /// idle connections, lets requests in flight be read, handled and answered — with
    /// `Connection: close` — for up to `shutdownGraceMilliseconds`, then shuts every connection
    /// still open and cancels its handler task, and returns. Idempotent: a later or concurrent
    /// call waits until the server has stopped. Before `start()`, it only marks the server stopped.
    public func shutdown() async {
        let first = state.withLock { state -> Bool in
            guard state.phase == .running else { return false }
            state.phase = .stopping
            shuttingDown.store(true, ordering: .releasing)
            state.wake?.signal()
            return true
        }
        guard first else {
            let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
                guard state.phase == .created else { return [] }
                shuttingDown.store(true, ordering: .releasing)
                return state.stop()
            }
            for waiter in waiters { waiter.resume() }
            await waitUntilStopped()
            return
        }
        let deadline = ContinuousClock.now + .milliseconds(configuration.limits.shutdownGraceMilliseconds)
        while ContinuousClock.now < deadline, !Task.isCancelled,
            state.withLock({ !$0.connections.isEmpty || $0.isAccepting })
        {
            try? await Task.sleep(for: .milliseconds(5))
        }
        let waiters = state.withLock { state in
            for connection in state.connections.values {
                SocketSystem.shutdown(connection.descriptor, alsoReading: true)
                connection.activity.cancelHandler()
            }
            return state.stop()
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the server has stopped: after `shutdown()` has finished, whoever called it.
    public func waitUntilStopped() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let stopped = state.withLock { state in
                guard state.phase != .stopped else { return true }
                state.stopWaiters.append(waiter)
                return false
            }
            if stopped { waiter.resume() }
        }
    }
}
