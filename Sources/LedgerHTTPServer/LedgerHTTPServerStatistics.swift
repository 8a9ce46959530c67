/// A snapshot of a `LedgerHTTPServer`'s counters since it started. The counters move only
/// with what clients do, so a test can expect exact values.
public struct LedgerHTTPServerStatistics: Sendable, Hashable {
    /// Connections accepted and served (those refused over the limit not included).
    public var connectionsAccepted: Int
    /// Connections accepted only to be answered 503 and closed, over `connectionCountMax` with
    /// no idle connection to close in their place.
    public var connectionsRefused: Int
    /// Idle keep-alive connections closed to make room for a new one at `connectionCountMax`.
    public var idleConnectionsClosed: Int
    /// Requests that reached the handler.
    public var requestsHandled: Int
    /// Requests the server answered itself with an error, by status (400, 408, 413, 417, 431,
    /// 501, 505); none of them reached the handler.
    public var requestsRejected: [Int: Int]
    /// Reads cut off by `readTimeoutMilliseconds` (each also counted under 408) and writes cut
    /// off by `writeTimeoutMilliseconds`; idle keep-alive connections closed are not counted.
    public var timeouts: Int
    /// Connections open now.
    public var currentConnections: Int

    /// Creates a snapshot; every counter defaults to 0.
    public init(
        connectionsAccepted: Int = 0, connectionsRefused: Int = 0, requestsHandled: Int = 0,
        requestsRejected: [Int: Int] = [:], timeouts: Int = 0, currentConnections: Int = 0, idleConnectionsClosed: Int = 0
    ) {
        self.idleConnectionsClosed = idleConnectionsClosed
        self.connectionsAccepted = connectionsAccepted
        self.connectionsRefused = connectionsRefused
        self.requestsHandled = requestsHandled
        self.requestsRejected = requestsRejected
        self.timeouts = timeouts
        self.currentConnections = currentConnections
    }

    /// Requests the server answered itself, all statuses together.
    public var requestsRejectedTotal: Int { requestsRejected.values.reduce(0, +) }

    /// The counters in Prometheus's text exposition format (version 0.0.4), for `GET /metrics`
    /// beside the ledger's own (`ledger serve` appends them): connections accepted, refused
    /// (503) and open, idle connections closed at the limit, requests handled, requests the
    /// server answered itself by status (408, 413, …) and timeouts. No player data.
    public func prometheusText() -> String {
        var lines = [
            "# HELP ledger_http_connections_accepted_total Connections accepted and served.",
            "# TYPE ledger_http_connections_accepted_total counter",
            "ledger_http_connections_accepted_total \(connectionsAccepted)",
            "# HELP ledger_http_connections_refused_total Connections answered 503 at the connection limit, none idle.",
            "# TYPE ledger_http_connections_refused_total counter",
            "ledger_http_connections_refused_total \(connectionsRefused)",
            "# HELP ledger_http_idle_connections_closed_total Idle keep-alive connections closed to make room at the limit.",
            "# TYPE ledger_http_idle_connections_closed_total counter",
            "ledger_http_idle_connections_closed_total \(idleConnectionsClosed)",
            "# HELP ledger_http_connections_open Connections open now.",
            "# TYPE ledger_http_connections_open gauge",
            "ledger_http_connections_open \(currentConnections)",
            "# HELP ledger_http_requests_handled_total Requests that reached the handler.",
            "# TYPE ledger_http_requests_handled_total counter",
            "ledger_http_requests_handled_total \(requestsHandled)",
            "# HELP ledger_http_requests_rejected_total Requests the server answered itself with an error, by status.",
            "# TYPE ledger_http_requests_rejected_total counter",
        ]
        for (status, count) in requestsRejected.sorted(by: { $0.key < $1.key }) {
            lines.append("ledger_http_requests_rejected_total{status=\"\(status)\"} \(count)")
        }
        lines += [
            "# HELP ledger_http_timeouts_total Reads and writes cut off by their timeouts.",
            "# TYPE ledger_http_timeouts_total counter",
            "ledger_http_timeouts_total \(timeouts)",
        ]
        return lines.joined(separator: "\n") + "\n"
    }
}
