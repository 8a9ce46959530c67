import Foundation
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import Testing

/// The answers the server gives itself, over raw sockets: each is short JSON, closes the
/// connection and never reaches the handler.
@Suite("HTTP server error answers", .onTestServerExecutor)
struct ServerErrorAnswerTests {
    /// A request the server must refuse, the status and the stable code it must answer.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var request: String
        var status: Int
        var code: String
        var testDescription: String { name }
    }

    /// A request answered 400 `malformed_request`.
    static func malformed(_ name: String, _ request: String) -> Case {
        Case(name: name, request: request, status: 400, code: "http.malformedRequest")
    }

    static let cases: [Case] = [
        malformed("request line of two words", "GET /\r\nHost: a\r\n\r\n"),
        malformed("double space in request line", "GET  / HTTP/1.1\r\n\r\n"),
        malformed("not HTTP", "HELLO THERE FRIEND\r\n\r\n"),
        malformed("bare CR", "GET / HTTP/1.1\rHost: a\r\n\r\n"),
        malformed("bare CR in a field", "GET / HTTP/1.1\r\nX-A: 1\r2\r\n\r\n"),
        malformed("obs-fold", "GET / HTTP/1.1\r\nX-A: 1\r\n  2\r\n\r\n"),
        malformed("space before colon", "GET / HTTP/1.1\r\nHost : a\r\n\r\n"),
        malformed("bad field name", "GET / HTTP/1.1\r\nX(A): 1\r\n\r\n"),
        malformed("differing Content-Length", "POST / HTTP/1.1\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabcd"),
        malformed("negative Content-Length", "POST / HTTP/1.1\r\nContent-Length: -1\r\n\r\n"),
        malformed("non-numeric Content-Length", "POST / HTTP/1.1\r\nContent-Length: 12a\r\n\r\n"),
        malformed("Content-Length beside chunked", "POST / HTTP/1.1\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n"),
        malformed("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        malformed("bad chunk size", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        malformed("chunked in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n"),
        // Found by fuzzing the request reader: each was served before.
        malformed("empty field name", "GET / HTTP/1.1\r\nHost: a\r\n: x\r\n\r\n"),
        malformed("LF in a chunk extension", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n3;\nx\r\nabc\r\n0\r\n\r\n"),
        malformed("control bytes in a trailer", "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nX: 1\u{0F}\n\r\n\r\n"),
        malformed("no-break space in Content-Length", "POST / HTTP/1.1\r\nContent-Length: 1\u{A0}\r\n\r\nx"),
        Case(
            name: "gzip transfer coding", request: "POST / HTTP/1.1\r\nTransfer-Encoding: gzip, chunked\r\n\r\n", status: 501,
            code: "http.unsupportedTransferCoding"),
        // Found the same way: Unicode whitespace was trimmed from list elements, and
        // Unicode case mapping read a Kelvin sign as `k`, so both were served as chunked.
        Case(
            name: "no-break space before chunked", request: "POST / HTTP/1.1\r\nTransfer-Encoding:\u{A0}chunked\r\n\r\n0\r\n\r\n",
            status: 501, code: "http.unsupportedTransferCoding"),
        Case(
            name: "Kelvin sign in chunked", request: "POST / HTTP/1.1\r\nTransfer-Encoding: chun\u{212A}ed\r\n\r\n0\r\n\r\n",
            status: 501, code: "http.unsupportedTransferCoding"),
        Case(name: "HTTP/2.0", request: "GET / HTTP/2.0\r\n\r\n", status: 505, code: "http.versionNotSupported"),
        Case(name: "HTTP/0.9 style", request: "GET / HTTP/0.9\r\n\r\n", status: 505, code: "http.versionNotSupported"),
        Case(
            name: "Expect other than 100-continue", request: "POST / HTTP/1.1\r\nExpect: magic\r\nContent-Length: 1\r\n\r\nx",
            status: 417, code: "http.expectationFailed"),
    ]

    @Test("a bad request is answered by the server, as JSON, and closed", arguments: cases)
    func badRequestIsAnswered(testCase: Case) async throws {
        let handled = try await TestServer.with { server, port in
            let (response, closed) = try await onOwnThread { try RawHTTPClient.exchange(port: port, testCase.request) }
            let answer = try #require(response)
            #expect(answer.status == testCase.status)
            #expect(answer.header("Content-Type") == "application/json")
            #expect(answer.header("Connection") == "close")
            let json = try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any]
            let error = json?["error"] as? [String: Any]
            #expect(error?["name"] as? String == testCase.code)
            #expect((error?["message"] as? String)?.isEmpty == false)
            #expect(error?["code"] is Int && error?["retryable"] is Bool && error?["outcomeUnknown"] is Bool)
            #expect(closed)
            #expect(server.statistics.requestsRejected == [testCase.status: 1])
            return server.statistics.requestsHandled
        }
        #expect(handled == 0)
    }

    /// RFC 9112 lets a recipient take a lone LF for CR LF, as nginx and Go do; RFC 9110 has
    /// HEAD answered as GET without its body, an absolute-form target served by its path.
    @Test(arguments: [
        "GET /lf HTTP/1.1\nHost: a\n\n", "GET /lf HTTP/1.1\r\nHost: a\n\r\n", "GET /lf HTTP/1.1\nHost: a\r\n\r\n",
    ])
    func aHeadWithLineFeedsAloneIsServed(_ request: String) async throws {
        try await TestServer.with { _, port in
            let (response, _) = try await onOwnThread { try RawHTTPClient.exchange(port: port, request) }
            let answer = try #require(response)
            #expect(answer.status == 200 && answer.header("X-Target") == "/lf", "\(request.debugDescription)")
        }
    }

    @Test func anAbsoluteFormTargetIsServedByItsPath() async throws {
        try await TestServer.with { _, port in
            let request = "GET http://127.0.0.1:\(port)/players/p1?x=1 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
            let (response, _) = try await onOwnThread { try RawHTTPClient.exchange(port: port, request) }
            #expect(try #require(response).status == 200)
        }
        let request = LedgerHTTPRequest(method: "GET", target: "http://example.com:8080/players/p1?at=now")
        #expect(request.path == "/players/p1" && request.queryItems.map(\.name) == ["at"])
        #expect(LedgerHTTPRequest(method: "GET", target: "HTTPS://example.com").path == "/")
    }

    @Test func aHeadOverTheHeaderLimitIs431() async throws {
        let limits = LedgerHTTPServerLimits(headerByteCountMax: 1024, readTimeoutMilliseconds: TestServer.patientMilliseconds)
        try await TestServer.with(limits: limits) { server, port in
            let request = "GET / HTTP/1.1\r\nHost: a\r\nX-Big: \(String(repeating: "b", count: 2000))\r\n\r\n"
            let (response, closed) = try await onOwnThread { try RawHTTPClient.exchange(port: port, request) }
            #expect(response?.status == 431)
            #expect(response?.text.contains("http.headerTooLarge") == true)
            #expect(closed)
            #expect(server.statistics.requestsHandled == 0)
        }
    }

    @Test func moreHeaderFieldsThanTheLimitIs431() async throws {
        let limits = LedgerHTTPServerLimits(headerFieldCountMax: 5, readTimeoutMilliseconds: TestServer.patientMilliseconds)
        try await TestServer.with(limits: limits) { _, port in
            let fields = (0..<6).map { "X-\($0): v\r\n" }.joined()
            let (response, _) = try await onOwnThread { try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\n\(fields)\r\n") }
            #expect(response?.status == 431)
        }
    }

    /// Decided from `Content-Length` alone: no byte of the body is sent, the answer comes anyway.
    @Test func aDeclaredBodyOverTheLimitIs413BeforeTheBodyIsRead() async throws {
        try await TestServer.with { server, port in
            let request = "POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: \(2 << 20)\r\n\r\n"
            let (response, closed) = try await onOwnThread { try RawHTTPClient.exchange(port: port, request) }
            #expect(response?.status == 413)
            #expect(response?.text.contains("http.bodyTooLarge") == true)
            #expect(closed)
            #expect(server.statistics.requestsRejected == [413: 1])
        }
    }

    @Test func aChunkedBodyOverTheLimitIs413WhileReading() async throws {
        let limits = LedgerHTTPServerLimits(bodyByteCountMax: 10, readTimeoutMilliseconds: TestServer.patientMilliseconds)
        try await TestServer.with(limits: limits) { _, port in
            let request = "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n12345678\r\n8\r\n12345678\r\n0\r\n\r\n"
            let (response, closed) = try await onOwnThread { try RawHTTPClient.exchange(port: port, request) }
            #expect(response?.status == 413)
            #expect(closed)
        }
    }

    /// Half a request, then silence: cut off with 408 once the read timeout has run out.
    @Test func aClientThatStopsSendingIsCutOffWith408() async throws {
        let limits = LedgerHTTPServerLimits(readTimeoutMilliseconds: 300)
        try await TestServer.with(limits: limits) { server, port in
            let started = ContinuousClock.now
            let (response, closed) = try await onOwnThread { try RawHTTPClient.exchange(port: port, "GET / HTTP/1.1\r\nHost: a\r\n") }
            let elapsed = ContinuousClock.now - started
            #expect(response?.status == 408)
            #expect(response?.text.contains("http.requestTimeout") == true)
            #expect(closed)
            #expect(elapsed >= .milliseconds(250) && elapsed < .milliseconds(TestServer.hangMilliseconds))
            #expect(server.statistics.timeouts == 1)
        }
    }

    /// A body that trickles in too slowly is cut off too: the timeout bounds head and body together.
    @Test func aBodyThatDoesNotArriveInTimeIs408() async throws {
        let limits = LedgerHTTPServerLimits(readTimeoutMilliseconds: 300)
        try await TestServer.with(limits: limits) { _, port in
            let (response, _) = try await onOwnThread {
                try RawHTTPClient.exchange(port: port, "POST / HTTP/1.1\r\nContent-Length: 10\r\n\r\nabc")
            }
            #expect(response?.status == 408)
        }
    }

    /// At the limit with no idle connection (two clients connected, neither has sent a request
    /// yet), a third is answered 503 with `Retry-After` and closed.
    @Test func aConnectionOverTheLimitIsAnswered503AndClosed() async throws {
        let limits = LedgerHTTPServerLimits(connectionCountMax: 2, readTimeoutMilliseconds: TestServer.patientMilliseconds)
        try await TestServer.with(limits: limits) { server, port in
            let refused = try await onOwnThread { () -> (RawResponse?, Bool) in
                let held = try (0..<2).map { _ in try RawHTTPClient(port: port) }
                // Both are admitted (accepted and counted) before the third connects.
                while server.statistics.connectionsAccepted < 2 { usleep(1_000) }
                let third = try RawHTTPClient(port: port)
                let response = try third.readResponse()
                withExtendedLifetime(held) {}
                return (response, third.isClosedByServer())
            }
            #expect(refused.0?.status == 503)
            #expect(refused.0?.text.contains("http.serverBusy") == true)
            #expect(refused.0?.header("Retry-After") == "1")
            #expect(refused.0?.header("Connection") == "close")
            #expect(refused.1)
            #expect(server.statistics.connectionsRefused == 1)
            #expect(server.statistics.connectionsAccepted == 2)
        }
    }

    /// Idle keep-alive connections never lock a new client out: at the limit, the one idle
    /// longest is closed and the new client is served.
    @Test func anIdleConnectionMakesRoomForANewClient() async throws {
        let limits = LedgerHTTPServerLimits(connectionCountMax: 2, readTimeoutMilliseconds: TestServer.patientMilliseconds)
        try await TestServer.with(limits: limits) { server, port in
            let outcome = try await onOwnThread { () -> ([Int], Int?, Bool) in
                // Two connections served and kept open (idle), then a third.
                let held = try (0..<2).map { _ in try RawHTTPClient(port: port) }
                var statuses: [Int] = []
                for client in held {
                    try client.send("GET / HTTP/1.1\r\nHost: a\r\n\r\n")
                    statuses.append(try client.readResponse()?.status ?? 0)
                }
                let third = try RawHTTPClient(port: port)
                try third.send("GET /third HTTP/1.1\r\nHost: a\r\n\r\n")
                let answer = try third.readResponse()?.status
                return (statuses, answer, held[0].isClosedByServer())
            }
            #expect(outcome.0 == [200, 200])
            #expect(outcome.1 == 200, "the new client is served")
            #expect(outcome.2, "the connection idle longest was closed")
            #expect(server.statistics.connectionsRefused == 0 && server.statistics.idleConnectionsClosed == 1)
            #expect(server.statistics.connectionsAccepted == 3)
        }
    }
}
