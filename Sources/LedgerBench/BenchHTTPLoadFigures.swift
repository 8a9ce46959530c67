import Foundation

/// What the HTTP load run measured: purchases through `LedgerHTTPServer` on loopback from
/// concurrent blocking clients, beside the same purchases from as many in-process callers,
/// and the exactly-once check read back from the ledger.
struct BenchHTTPLoadFigures: Encodable {
    /// Purchases, each granted once over HTTP.
    var purchaseCount: Int
    /// Purchases sent a second time, each answered `alreadyFulfilled`.
    var duplicateCount: Int
    /// Concurrent HTTP clients (and in-process callers).
    var clientCount: Int
    /// Requests sent: purchases plus duplicates.
    var requestCount: Int
    /// Connections the clients opened (the server closes one after its request limit).
    var connectionCount: Int
    /// From the go signal until the last client was done.
    var seconds: Double
    /// New purchases granted per second over HTTP.
    var httpPurchasesPerSecond: Double
    /// Requests answered per second over HTTP.
    var httpRequestsPerSecond: Double
    /// The same purchase count from `clientCount` in-process callers on a fresh ledger, per second.
    var inProcessPurchasesPerSecond: Double
    /// `httpPurchasesPerSecond / inProcessPurchasesPerSecond`.
    var httpOverInProcess: Double
    /// Every purchase sent again over HTTP, each once, per second (all `alreadyFulfilled`).
    var httpDuplicatesPerSecond: Double
    /// Every in-process purchase submitted again by as many callers, per second.
    var inProcessDuplicatesPerSecond: Double
    /// `httpDuplicatesPerSecond / inProcessDuplicatesPerSecond`.
    var httpDuplicatesOverInProcess: Double
    /// The same clients and bodies against nginx's fixed answer on loopback, requests per
    /// second; or why not (nginx not installed).
    var loopbackCeilingRequestsPerSecond: BenchSection<Double>
    /// `httpPurchasesPerSecond / loopbackCeilingRequestsPerSecond`, when the ceiling was measured.
    var httpOverLoopbackCeiling: Double?
    /// Ledger records after the run (must equal `purchaseCount`).
    var recordCount: Int
    /// Gems in the players' balances after the run (must equal purchases × the product's gems).
    var gemsGranted: Int64
    /// Whether every purchase was granted exactly once (the run throws otherwise).
    var exactlyOnce: Bool

    /// The loopback ceiling's line: nginx's rate and HTTP's share of it, or why it is missing.
    private var ceilingLine: String {
        switch loopbackCeilingRequestsPerSecond {
        case .measured(let rate):
            "  nginx fixed answer requests/s       " + String(format: "%12.1f", rate) + "   HTTP / nginx "
                + String(format: "%.2f", httpOverLoopbackCeiling ?? 0)
        case .absent(let reason): "  nginx loopback ceiling: \(reason)"
        }
    }

    /// The report's lines.
    var textLines: [String] {
        [
            "HTTP load run (\(clientCount) blocking HTTP/1.1 keep-alive clients on loopback, FULL):",
            "  purchases \(purchaseCount), duplicates \(duplicateCount), requests \(requestCount),"
                + " connections \(connectionCount), \(String(format: "%.2f", seconds)) s",
            "  HTTP purchases/s                    " + String(format: "%12.1f", httpPurchasesPerSecond),
            "  HTTP requests/s                     " + String(format: "%12.1f", httpRequestsPerSecond),
            "  in-process purchases/s (\(clientCount) callers) " + String(format: "%12.1f", inProcessPurchasesPerSecond),
            "  HTTP / in-process                   " + String(format: "%12.2f", httpOverInProcess),
            "  HTTP duplicates/s                   " + String(format: "%12.1f", httpDuplicatesPerSecond),
            "  in-process duplicates/s             " + String(format: "%12.1f", inProcessDuplicatesPerSecond),
            "  HTTP duplicates / in-process        " + String(format: "%12.2f", httpDuplicatesOverInProcess),
            ceilingLine,
            "  exactly once: \(exactlyOnce ? "yes" : "no") (\(recordCount) records, \(gemsGranted) gems)",
        ]
    }
}
