import Foundation
import FulfillmentLedger
import PostgresLedgerStore
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback socket that listens and never accepts: the kernel completes each handshake, and
/// libpq then waits for an answer that never comes.
final class SilentListener {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        try #require(descriptor >= 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(bound == 0 && listen(descriptor, 64) == 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        self.descriptor = descriptor
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}

/// A server that accepts TCP and never answers: opening a store gives up once the connect
/// timeout has passed, in total, however many times the open would otherwise retry.
@Suite struct PostgresSilentServerTests {
    @Test func openingAgainstASilentServerGivesUpAtTheConnectTimeoutInTotal() async throws {
        let listener = try SilentListener()
        var options = PostgresLedgerStore.Options(
            connectionString: "postgresql://ledger@127.0.0.1:\(listener.port)/ledger?sslmode=disable")
        options.pool.connectTimeoutSeconds = 2
        let start = ContinuousClock.now
        await #expect(throws: LedgerError.self) { _ = try await PostgresLedgerStore(options: options) }
        let elapsed = ContinuousClock.now - start
        // Retrying the open, each attempt waiting its own timeout, took 9 × 2 s; the timeout now
        // bounds the whole open (libpq's own granularity is a second, hence the margin).
        #expect(elapsed < .seconds(2 * options.pool.connectTimeoutSeconds), "the open took \(elapsed)")
        #expect(elapsed >= .seconds(1), "the open waited for the server: \(elapsed)")
    }
}
