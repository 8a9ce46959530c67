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
    }

    /// A server that closes every connection after 4 requests: the clients reconnect, and
    /// still every purchase is granted once and every duplicate answered as one.
    @Test func clientsReconnectAfterTheServersRequestLimit() async throws {
        let scratch = try ScratchDirectory()
        let count = 320
        let figures = try await BenchHTTPLoad.measure(count: count, directory: scratch.url, requestCountPerConnectionMax: 4)
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
    }
}
