import Foundation
import Testing

@testable import LedgerBench

/// The HTTP load run on loopback: small counts, checked for exactly-once figures only (never
/// for speed: the machines that run tests are too noisy).
@Suite struct BenchHTTPLoadTests {
    @Test func eachPurchaseIsGrantedExactlyOnceOverHTTP() async throws {
        let scratch = try ScratchDirectory()
        let count = 320
        let figures = try await BenchHTTPLoad.measure(count: count, directory: scratch.url)
        try check(figures, count: count)
        // 10 or 12 requests per client, far under the server's 1,000: one connection each.
        #expect(figures.connectionCount == BenchHTTPLoad.clientCount)
        #expect(figures.textLines.contains { $0.contains("exactly once: yes") })
        // The loopback ceiling: measured when nginx is installed, else skipped with the reason.
        switch figures.loopbackCeilingRequestsPerSecond {
        case .measured(let rate):
            #expect(rate > 0 && rate.isFinite)
            #expect((figures.httpOverLoopbackCeiling ?? 0) > 0)
            #expect(figures.textLines.contains { $0.contains("HTTP / nginx") })
        case .absent(let reason):
            #expect(BenchNginxCeiling.executable() == nil, "nginx is installed but did not run: \(reason)")
            #expect(reason.contains("nginx is not installed") && figures.httpOverLoopbackCeiling == nil)
        }
    }

    @Test func nginxIsConfiguredForAFixedAnswerOnLoopbackOnly() {
        let configuration = BenchNginxCeiling.configuration(folder: "/tmp/x", port: 4321)
        #expect(configuration.contains("listen 127.0.0.1:4321;"))
        #expect(configuration.contains("return 200 '{\"outcome\":\"granted\"}';"))
        #expect(configuration.contains("daemon off;") && configuration.contains("access_log off;"))
        #expect(configuration.contains("pid /tmp/x/nginx.pid;"))
    }

    /// A server that closes every connection after 4 requests: the clients reconnect, and
    /// still every purchase is granted once and every duplicate answered as one.
    @Test func clientsReconnectAfterTheServersRequestLimit() async throws {
        let scratch = try ScratchDirectory()
        let count = 320
        let figures = try await BenchHTTPLoad.measure(
            count: count, directory: scratch.url, requestCountPerConnectionMax: 4, ceiling: false)
        try check(figures, count: count)
        #expect(figures.connectionCount >= 3 * BenchHTTPLoad.clientCount, "\(figures.connectionCount) connections")
    }

    @Test func readsTheServersResponseHead() throws {
        let head = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nConnection: close\r\n\r\n".utf8)
        let parsed = try BenchHTTPClient.parseHead(head)
        #expect(parsed.status == 200 && parsed.contentLength == 2 && parsed.closes)
        #expect(BenchHTTPClient.headEnd(head + Array("{}".utf8)) == head.count)
        #expect(BenchHTTPClient.headEnd(Array("HTTP/1.1 200 OK\r\n".utf8)) == nil)
        #expect(throws: BenchHTTPClient.Failure.self) { try BenchHTTPClient.parseHead(Array("HTTP/1.1 200 OK\r\n\r\n".utf8)) }
        #expect(throws: BenchHTTPClient.Failure.self) { try BenchHTTPClient.parseHead(Array("SMTP ready\r\n\r\n".utf8)) }
    }

    private func check(_ figures: BenchHTTPLoadFigures, count: Int) throws {
        #expect(figures.purchaseCount == count)
        #expect(figures.duplicateCount == count / BenchHTTPLoad.duplicateInterval)
        #expect(figures.requestCount == count + count / BenchHTTPLoad.duplicateInterval)
        #expect(figures.clientCount == BenchHTTPLoad.clientCount)
        #expect(figures.recordCount == count)
        #expect(figures.gemsGranted == Int64(count) * 100)
        #expect(figures.exactlyOnce)
        #expect(figures.httpPurchasesPerSecond > 0 && figures.inProcessPurchasesPerSecond > 0)
        #expect(figures.httpDuplicatesPerSecond > 0 && figures.inProcessDuplicatesPerSecond > 0)
        #expect(figures.httpDuplicatesOverInProcess > 0 && figures.httpDuplicatesOverInProcess.isFinite)
    }
}
