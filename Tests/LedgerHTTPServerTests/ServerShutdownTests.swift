import Foundation
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Graceful shutdown: requests in flight finish, new connections are refused, it returns.
@Suite("HTTP server shutdown", .onTestServerExecutor)
struct ServerShutdownTests {
    /// A handler that holds `/slow` requests at `gate` and echoes the rest.
    static func handler(_ gate: Gate) -> LedgerHTTPServer.Handler {
        { request in
            if request.path == "/slow" { await gate.enter() }
            return TestServer.echo(request)
        }
    }

    @Test func aRequestInFlightIsAnsweredWhileNewConnectionsAreRefused() async throws {
        let gate = Gate()
        let server = LedgerHTTPServer(configuration: .init(limits: TestServer.limits), handler: Self.handler(gate))
        let port = try server.start()
        let inFlight = Task(executorPreference: TestServer.executor) { try await onOwnThread { try RawHTTPClient.exchange(port: port, "GET /slow HTTP/1.1\r\n\r\n") } }
        await gate.waitUntilEntered()
        let started = ContinuousClock.now
        let shutdown = Task(executorPreference: TestServer.executor) { await server.shutdown() }
        #expect(await TestServer.eventually { RawHTTPClient.isRefused(port: port) })
        #expect(server.isShuttingDown)
        gate.release()
        let (response, closed) = try await inFlight.value
        #expect(response?.status == 200)
        #expect(response?.text == "GET /slow")
        #expect(response?.header("Connection") == "close")
        #expect(closed)
        await shutdown.value
        #expect(ContinuousClock.now - started < .milliseconds(TestServer.hangMilliseconds))
        #expect(server.statistics.currentConnections == 0)
        #expect(RawHTTPClient.isRefused(port: port))
    }

    /// Clients that connected and sent a whole request just before shutdown are all answered,
    /// whether the accept loop had taken their connections yet or they still sat in the
    /// listening socket's backlog: closing the listener must not reset them.
    /// The grace and the clients' patience are long: this is a test of what is answered, and on
    /// a loaded machine 24 connection threads may take more than the usual ten seconds.
    @Test func requestsSentJustBeforeShutdownAreAllAnswered() async throws {
        let patient = TestServer.hangMilliseconds * 4
        let limits = LedgerHTTPServerLimits(
            readTimeoutMilliseconds: patient, writeTimeoutMilliseconds: patient, idleTimeoutMilliseconds: patient,
            shutdownGraceMilliseconds: patient)
        let server = LedgerHTTPServer(configuration: .init(limits: limits)) { TestServer.echo($0) }
        let port = try server.start()
        let clientCount = 24
        let statuses = try await onOwnThread { () -> [Int?] in
            var clients: [RawHTTPClient] = []
            for index in 0..<clientCount {
                let client = try RawHTTPClient(port: port, timeoutSeconds: patient / 1_000)
                try client.send("GET /\(index) HTTP/1.1\r\n\r\n")
                clients.append(client)
            }
            Task(executorPreference: TestServer.executor) { await server.shutdown() }
            return try clients.map { try $0.readResponse()?.status }
        }
        #expect(statuses == Array(repeating: 200, count: clientCount))
        await server.waitUntilStopped()
        #expect(RawHTTPClient.isRefused(port: port))
    }

    /// An idle kept-alive connection does not hold shutdown up; a second call just waits.
    @Test func shutdownClosesIdleConnectionsAndIsIdempotent() async throws {
        let server = LedgerHTTPServer(configuration: .init(limits: TestServer.limits)) { TestServer.echo($0) }
        let port = try server.start()
        // The client stays connected, idle and kept alive, until the server closes it.
        let client = Task(executorPreference: TestServer.executor) {
            try await onOwnThread { () -> Bool in
                let client = try RawHTTPClient(port: port)
                try client.send("GET / HTTP/1.1\r\n\r\n")
                _ = try client.readResponse()
                return client.isClosedByServer()
            }
        }
        #expect(await TestServer.eventually { server.statistics.requestsHandled == 1 })
        let started = ContinuousClock.now
        async let first: Void = server.shutdown()
        async let second: Void = server.shutdown()
        _ = await (first, second)
        await server.shutdown()
        await server.waitUntilStopped()
        #expect(ContinuousClock.now - started < .milliseconds(TestServer.hangMilliseconds))
        #expect(try await client.value)
    }

    /// Past the grace, a handler still running is cancelled and its connection shut.
    @Test func shutdownGivesUpOnAStuckHandlerAfterTheGrace() async throws {
        let gate = Gate()
        let limits = LedgerHTTPServerLimits(readTimeoutMilliseconds: TestServer.patientMilliseconds, shutdownGraceMilliseconds: 200)
        let server = LedgerHTTPServer(configuration: .init(limits: limits), handler: Self.handler(gate))
        let port = try server.start()
        let inFlight = Task(executorPreference: TestServer.executor) { try await onOwnThread { try RawHTTPClient.exchange(port: port, "GET /slow HTTP/1.1\r\n\r\n") } }
        await gate.waitUntilEntered()
        let started = ContinuousClock.now
        await server.shutdown()
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(180) && elapsed < .milliseconds(TestServer.hangMilliseconds))
        gate.release()
        let (response, _) = try await inFlight.value
        #expect(response == nil)
    }

    @Test func shutdownBeforeStartStopsTheServer() async {
        let server = LedgerHTTPServer { TestServer.echo($0) }
        await server.shutdown()
        await server.waitUntilStopped()
        #expect(throws: LedgerHTTPServerError.alreadyStarted) { try server.start() }
    }

    /// SIGTERM to this process shuts the server down gracefully. The signal is ignored first,
    /// and sent again until the server has stopped, so that neither a signal sent before the
    /// watcher's source is in place nor one sent after can end the test process.
    @Test func sigtermShutsTheServerDown() async throws {
        signal(SIGTERM, SIG_IGN)
        let server = LedgerHTTPServer(configuration: .init(limits: TestServer.limits)) { TestServer.echo($0) }
        let port = try server.start()
        let running = Task(executorPreference: TestServer.executor) { await server.runUntilSignalled([SIGTERM]) }
        var stopped = false
        let deadline = ContinuousClock.now + .milliseconds(TestServer.hangMilliseconds)
        while !stopped, ContinuousClock.now < deadline {
            kill(getpid(), SIGTERM)
            stopped = await TestServer.eventually(within: 50) { RawHTTPClient.isRefused(port: port) }
        }
        #expect(stopped)
        // A signal that never arrived must not leave the server, and the test process, running.
        if !stopped { await server.shutdown() }
        await running.value
        #expect(server.isShuttingDown)
    }
}
