import Foundation
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import Synchronization
import Testing

/// The servers the tests drive: each test starts its own on an ephemeral loopback port.
enum TestServer {
    /// How long the server waits for a client that is merely slow because the machine is busy.
    /// Generous, so that no test fails on a stalled thread; a test of a timeout sets its own.
    static let patientMilliseconds = 10_000

    /// Limits that only a hung peer reaches; each test overrides what it exercises.
    static let limits = LedgerHTTPServerLimits(
        readTimeoutMilliseconds: patientMilliseconds, writeTimeoutMilliseconds: patientMilliseconds,
        idleTimeoutMilliseconds: patientMilliseconds, shutdownGraceMilliseconds: patientMilliseconds)

    /// Echoes the request: status 200, the method and target in `X-Method` and `X-Target`, the
    /// body (with its `Content-Type`) when there is one, else `<method> <target>` as text.
    /// `/status/<code>` answers that status instead.
    static func echo(_ request: LedgerHTTPRequest) -> LedgerHTTPResponse {
        var status = 200
        if request.path.hasPrefix("/status/"), let code = Int(request.path.dropFirst("/status/".count)) { status = code }
        let body = request.body.isEmpty ? Data("\(request.method) \(request.target)".utf8) : request.body
        return LedgerHTTPResponse(
            status: status,
            headers: [
                ("Content-Type", request.header("Content-Type") ?? "text/plain"), ("X-Method", request.method),
                ("X-Target", request.target),
            ], body: body)
    }

    /// Runs `body` with a started echo server (or `handler`'s) and its port, then shuts it down.
    static func with<T>(
        limits: LedgerHTTPServerLimits = TestServer.limits, host: String = "127.0.0.1",
        handler: @escaping LedgerHTTPServer.Handler = { TestServer.echo($0) },
        _ body: (LedgerHTTPServer, Int) async throws -> T
    ) async throws -> T {
        let server = LedgerHTTPServer(configuration: .init(host: host, port: 0, limits: limits), handler: handler)
        let port = try server.start()
        do {
            let result = try await body(server, port)
            await server.shutdown()
            return result
        } catch {
            await server.shutdown()
            throw error
        }
    }

    /// How long a test waits before it calls something hung. Only a hang fails: these machines
    /// are noisy and the suite runs beside every other, so no test asserts that anything is fast.
    static let hangMilliseconds = 30_000

    /// Polls `condition` every 5 ms for up to `milliseconds`; whether it came true.
    static func eventually(within milliseconds: Int = TestServer.hangMilliseconds, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(milliseconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(5))
        }
        return condition()
    }
}

/// A handler the test holds: `enter()` records that a request arrived and waits until the
/// test calls `release()`.
final class Gate: Sendable {
    private struct State {
        var entered = 0
        var released = false
        var enteredWaiters: [CheckedContinuation<Void, Never>] = []
        var releaseWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

    /// How many requests have entered.
    var enteredCount: Int { state.withLock { $0.entered } }

    /// Records the arrival and waits for `release()`.
    func enter() async {
        let waiters = state.withLock { state in
            state.entered += 1
            defer { state.enteredWaiters = [] }
            return state.enteredWaiters
        }
        for waiter in waiters { waiter.resume() }
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let released = state.withLock { state in
                if !state.released { state.releaseWaiters.append(waiter) }
                return state.released
            }
            if released { waiter.resume() }
        }
    }

    /// Returns once a request has entered.
    func waitUntilEntered() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let entered = state.withLock { state in
                if state.entered == 0 { state.enteredWaiters.append(waiter) }
                return state.entered > 0
            }
            if entered { waiter.resume() }
        }
    }

    /// Lets every waiting and later request through.
    func release() {
        let waiters = state.withLock { state in
            state.released = true
            defer { state.releaseWaiters = [] }
            return state.releaseWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

extension TestServer {
    /// Where these suites' tasks run: serial queues of their own, not the shared concurrency
    /// pool. Swift Testing starts every suite's tests at once, and for the first minute the
    /// pool's few threads (as many as the machine has cores) have hundreds of tasks queued, so a
    /// test whose task waited there would measure that queue, not the server (seen as a 200 ms
    /// idle timeout taking 44 s, and a SIGTERM watcher installed only after the test gave up).
    /// Tried again without it once no store I/O ran on the pool: 2 of 4 full runs on two cores
    /// failed three of these tests the same way (a 200 ms idle timeout taking 38 to 45 s), so it stays.
    static let executor = SerialQueuesTaskExecutor(label: "LedgerHTTPServerTests", queueCount: 8)
}

/// Runs a test, or every test of a suite, with `TestServer.executor` as its task executor.
struct OnTestServerExecutor: SuiteTrait, TestTrait, TestScoping {
    /// A suite's tests each get the scope.
    var isRecursive: Bool { true }

    func provideScope(for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void)
        async throws
    {
        try await withTaskExecutorPreference(TestServer.executor) { try await function() }
    }
}

extension Trait where Self == OnTestServerExecutor {
    /// Runs the tests on `TestServer.executor`, off the shared concurrency pool.
    static var onTestServerExecutor: Self { OnTestServerExecutor() }
}
