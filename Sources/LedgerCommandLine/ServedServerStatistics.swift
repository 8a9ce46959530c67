import LedgerHTTPServer
import Synchronization

/// The HTTP server's counters for `GET /metrics`, reachable from the handler the server is built
/// with: the handler is made first, so the server is attached once it exists. Until then (and
/// never, in a server that is not attached) it adds nothing.
final class ServedServerStatistics: Sendable {
    private let server = Mutex<LedgerHTTPServer?>(nil)

    /// Makes `server`'s counters the ones `prometheusText()` renders.
    func attach(_ server: LedgerHTTPServer) {
        self.server.withLock { $0 = server }
    }

    /// The attached server's counters in Prometheus text, or "" before one is attached.
    func prometheusText() -> String {
        server.withLock { $0 }?.statistics.prometheusText() ?? ""
    }
}
