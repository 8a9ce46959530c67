import Foundation
import FulfillmentLedger
import PostgresLedgerStore
import Synchronization
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback socket that accepts connections and never answers them: libpq sends its startup
/// message and waits for a reply that never comes. It counts the connections it accepted.
final class SilentListener: Sendable {
    let descriptor: Int32
    let port: Int
    /// Most connections held; the test makes a few.
    static let acceptedCountMax = 64
    private let accepted = Mutex<[Int32]>([])

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
        // Accepts on a thread of its own until the socket is shut down.
        Thread.detachNewThread { [self] in
            for _ in 0..<Self.acceptedCountMax {
                let connection = accept(descriptor, nil, nil)
                guard connection >= 0 else { return }
                accepted.withLock { $0.append(connection) }
            }
        }
    }

    /// How many connections were made to it so far.
    var acceptedCount: Int { accepted.withLock { $0.count } }

    /// Stops accepting and closes every connection.
    func stop() {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
        accepted.withLock { connections in
            for connection in connections { close(connection) }
            connections.removeAll()
        }
    }
}

/// A server that accepts TCP and never answers: opening a store gives up once the connect
/// timeout has passed, in total, however many times the open would otherwise retry.
@Suite struct PostgresSilentServerTests {
    @Test func openingAgainstASilentServerWaitsOneConnectTimeoutInTotal() async throws {
        let listener = try SilentListener()
        defer { listener.stop() }
        var options = PostgresLedgerStore.Options(
            connectionString: "postgresql://ledger@127.0.0.1:\(listener.port)/ledger?sslmode=disable")
        options.pool.connectTimeoutSeconds = 2
        let start = ContinuousClock.now
        await #expect(throws: LedgerError.self) { _ = try await PostgresLedgerStore(options: options) }
        // Retrying the open made 9 connections, each waiting its own timeout (18 s); the timeout
        // now bounds the whole open: one connection, one wait. Counted, not timed: a loaded
        // machine may delay the test itself, never add a connection.
        #expect(listener.acceptedCount == 1, "\(listener.acceptedCount) connections")
        #expect(ContinuousClock.now - start >= .seconds(1), "the open waited for the server")
    }
}
