import Foundation
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import Testing

/// Requests that reach the handler, over raw sockets: framing, keep-alive and the counters.
@Suite("HTTP server connections", .onTestServerExecutor)
struct ServerConnectionTests {
    @Test func twoRequestsShareOneKeptAliveConnection() async throws {
        try await TestServer.with { server, port in
            let (responses, closed) = try await onOwnThread {
                try RawHTTPClient.conversation(
                    port: port,
                    ["GET /one HTTP/1.1\r\nHost: a\r\n\r\n", "POST /two HTTP/1.1\r\nHost: a\r\nContent-Length: 5\r\n\r\nhello"],
                    closeWithinMilliseconds: 500)
            }
            let (first, second) = (responses[0], responses[1])
            #expect(first?.status == 200)
            #expect(first?.text == "GET /one")
            #expect(first?.header("Connection") == nil)
            #expect(first?.header("Date") != nil)
            #expect(second?.text == "hello")
            #expect(second?.header("X-Method") == "POST")
            #expect(!closed)
            #expect(server.statistics.connectionsAccepted == 1)
            #expect(server.statistics.requestsHandled == 2)
        }
    }

    /// Pipelined requests are answered one after the other, in order.
    @Test func pipelinedRequestsAreAnsweredInOrder() async throws {
        try await TestServer.with { _, port in
            let bodies = try await onOwnThread { () -> [String] in
                let client = try RawHTTPClient(port: port)
                try client.send(
                    "GET /a HTTP/1.1\r\nHost: a\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 3\r\n\r\nxyzGET /c HTTP/1.1\r\n\r\n")
                return try (0..<3).map { _ in try client.readResponse()?.text ?? "" }
            }
            #expect(bodies == ["GET /a", "xyz", "GET /c"])
        }
    }

    @Test func connectionCloseIsHonoured() async throws {
        try await TestServer.with { _, port in
            let (response, closed) = try await onOwnThread {
                try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            }
            #expect(response?.status == 200)
            #expect(response?.header("Connection") == "close")
            #expect(closed)
        }
    }

    @Test func http10ClosesUnlessKeepAliveIsAsked() async throws {
        try await TestServer.with { _, port in
            let plain = try await onOwnThread { try RawHTTPClient.exchange(port: port, "GET / HTTP/1.0\r\n\r\n") }
            #expect(plain.response?.status == 200)
            #expect(plain.response?.header("Connection") == "close")
            #expect(plain.closed)
            let kept = try await onOwnThread {
                try RawHTTPClient.exchange(
                    port: port, "GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", closeWithinMilliseconds: 500)
            }
            #expect(kept.response?.header("Connection") == "keep-alive")
            #expect(!kept.closed)
        }
    }

    @Test func anIdleKeptAliveConnectionIsClosedWithoutAnAnswer() async throws {
        let limits = LedgerHTTPServerLimits(readTimeoutMilliseconds: TestServer.patientMilliseconds, idleTimeoutMilliseconds: 200)
        try await TestServer.with(limits: limits) { server, port in
            let started = ContinuousClock.now
            let (response, closed) = try await onOwnThread {
                try RawHTTPClient.conversation(port: port, ["GET / HTTP/1.1\r\nHost: a\r\n\r\n"])
            }
            #expect(response[0]?.status == 200)
            #expect(closed)
            #expect(ContinuousClock.now - started < .milliseconds(TestServer.hangMilliseconds))
            #expect(server.statistics.timeouts == 0)
        }
    }

    @Test func theLastRequestAllowedOnAConnectionIsAnsweredWithClose() async throws {
        let limits = LedgerHTTPServerLimits(readTimeoutMilliseconds: TestServer.patientMilliseconds, requestCountPerConnectionMax: 2)
        try await TestServer.with(limits: limits) { _, port in
            let (connections, closed) = try await onOwnThread { () -> ([String?], Bool) in
                let client = try RawHTTPClient(port: port)
                try client.send("GET / HTTP/1.1\r\n\r\nGET / HTTP/1.1\r\n\r\n")
                let first = try client.readResponse()
                let second = try client.readResponse()
                return ([first?.header("Connection"), second?.header("Connection")], client.isClosedByServer())
            }
            #expect(connections == [nil, "close"])
            #expect(closed)
        }
    }

    @Test func aChunkedBodyIsAssembledAndTrailersAreDropped() async throws {
        try await TestServer.with { _, port in
            let request =
                "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n5;ext=1\r\nhello\r\n6\r\n world\r\n0\r\nX-Trailer: t\r\n\r\n"
            let (response, closed) = try await onOwnThread {
                try RawHTTPClient.exchange(port: port, request, closeWithinMilliseconds: 500)
            }
            #expect(response?.text == "hello world")
            #expect(!closed)
        }
    }

    /// `100 Continue` comes before the body is sent; then the final answer.
    @Test func expect100ContinueIsAnsweredBeforeTheBody() async throws {
        try await TestServer.with { _, port in
            let (responses, _) = try await onOwnThread {
                try RawHTTPClient.conversation(
                    port: port, ["PUT / HTTP/1.1\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n", "body"])
            }
            #expect(responses[0]?.status == 100)
            #expect(responses[1]?.status == 200)
            #expect(responses[1]?.text == "body")
        }
    }

    @Test func headIsAnsweredWithoutABody() async throws {
        try await TestServer.with { _, port in
            let (responses, _) = try await onOwnThread {
                try RawHTTPClient.conversation(port: port, ["HEAD /x HTTP/1.1\r\n\r\n", "GET /x HTTP/1.1\r\n\r\n"])
            }
            let (head, get) = (responses[0], responses[1])
            // The second answer arriving intact shows that no body followed the first.
            #expect(head?.header("Content-Length") == "7")
            #expect(get?.text == "GET /x")
        }
    }

    /// The handler's framing fields are replaced by the server's; 204 gets no Content-Length.
    @Test func theServerFramesTheResponse() async throws {
        let handler: LedgerHTTPServer.Handler = { request in
            LedgerHTTPResponse(
                status: request.path == "/empty" ? 204 : 200,
                headers: [("Content-Length", "999"), ("Connection", "upgrade"), ("X-Bad", "a\r\nInjected: 1")],
                body: Data("abc".utf8))
        }
        try await TestServer.with(handler: handler) { _, port in
            let (responses, _) = try await onOwnThread {
                try RawHTTPClient.conversation(port: port, ["GET / HTTP/1.1\r\n\r\n", "GET /empty HTTP/1.1\r\n\r\n"])
            }
            let (full, empty) = (responses[0], responses[1])
            #expect(full?.header("Content-Length") == "3")
            #expect(full?.header("Connection") == nil)
            #expect(full?.header("X-Bad") == nil && full?.header("Injected") == nil)
            #expect(empty?.status == 204)
            #expect(empty?.header("Content-Length") == nil)
        }
    }

    @Test func statisticsCountWhatHappened() async throws {
        try await TestServer.with { server, port in
            try await onOwnThread {
                _ = try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nConnection: close\r\n\r\n")
                _ = try RawHTTPClient.exchange(port: port, "GET / HTTP/9.9\r\n\r\n")
                _ = try RawHTTPClient.exchange(port: port, "nonsense\r\n\r\n")
            }
            #expect(await TestServer.eventually { server.statistics.currentConnections == 0 })
            #expect(
                server.statistics
                    == LedgerHTTPServerStatistics(
                        connectionsAccepted: 3, requestsHandled: 1, requestsRejected: [400: 1, 505: 1]))
            #expect(server.statistics.requestsRejectedTotal == 2)
        }
    }

    @Test func anIPv6LoopbackServerAnswers() async throws {
        try await TestServer.with(host: "::1") { _, port in
            let response = try await onOwnThread { () -> RawResponse? in
                let client = try RawHTTPClient(port: port, host: "::1")
                try client.send("GET /six HTTP/1.1\r\n\r\n")
                return try client.readResponse()
            }
            #expect(response?.text == "GET /six")
        }
    }

    @Test func startReportsBadConfigurationsAndARepeatedStart() async throws {
        let named = LedgerHTTPServer(configuration: .init(host: "localhost")) { _ in .text(200, "") }
        #expect(throws: LedgerHTTPServerError.invalidConfiguration("host localhost is not an IPv4 or IPv6 literal")) {
            try named.start()
        }
        let zero = LedgerHTTPServer(configuration: .init(limits: .init(connectionCountMax: 0))) { _ in .text(200, "") }
        #expect(throws: LedgerHTTPServerError.invalidConfiguration("limits must be positive: connectionCountMax")) {
            try zero.start()
        }
        try await TestServer.with { server, port in
            #expect(throws: LedgerHTTPServerError.alreadyStarted) { try server.start() }
            #expect(server.port == port)
            let taken = LedgerHTTPServer(configuration: .init(port: port)) { _ in .text(200, "") }
            #expect(throws: LedgerHTTPServerError.socket(operation: "bind", errorNumber: EADDRINUSE)) { try taken.start() }
        }
    }
}
