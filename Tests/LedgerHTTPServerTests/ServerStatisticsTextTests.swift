import LedgerHTTPServer
import Testing

/// The server's counters as `GET /metrics` shows them beside the ledger's.
@Suite struct ServerStatisticsTextTests {
    @Test func everyCounterIsRenderedInPrometheusTextWithRejectionsByStatus() {
        let statistics = LedgerHTTPServerStatistics(
            connectionsAccepted: 12, connectionsRefused: 2, requestsHandled: 40, requestsRejected: [413: 1, 408: 3],
            timeouts: 3, currentConnections: 5, idleConnectionsClosed: 4)
        let lines = statistics.prometheusText().split(separator: "\n").filter { !$0.hasPrefix("#") }
        #expect(lines == [
            "ledger_http_connections_accepted_total 12",
            "ledger_http_connections_refused_total 2",
            "ledger_http_idle_connections_closed_total 4",
            "ledger_http_connections_open 5",
            "ledger_http_requests_handled_total 40",
            #"ledger_http_requests_rejected_total{status="408"} 3"#,
            #"ledger_http_requests_rejected_total{status="413"} 1"#,
            "ledger_http_timeouts_total 3",
        ])
        let text = statistics.prometheusText()
        #expect(text.hasSuffix("\n"))
        for name in ["connections_accepted_total", "connections_refused_total", "idle_connections_closed_total",
                     "connections_open", "requests_handled_total", "requests_rejected_total", "timeouts_total"] {
            #expect(text.contains("# TYPE ledger_http_\(name) "), "\(name)")
        }
    }
}
