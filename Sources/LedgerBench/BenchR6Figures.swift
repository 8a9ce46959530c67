import Foundation
import SQLiteLedgerStore

/// What R6's pre-fill made; R6's rates and ratios sit with the others in the report.
struct BenchR6Figures: Encodable {
    /// Purchases (`ledger_transactions` rows) pre-filled.
    var prefillTransactionCount: Int
    /// Players they are spread over.
    var prefillPlayerCount: Int
    /// Purchases per write transaction of the pre-fill.
    var prefillBatchRowCount: Int
    /// Wall time of the pre-fill, including the final checkpoint and sync.
    var prefillSeconds: Double
    /// Purchases pre-filled per second (each with its events and counts).
    var prefillRowsPerSecond: Double
    /// The database file's size after the pre-fill.
    var fileBytes: Int64
    /// `events` rows pre-filled (two per purchase).
    var eventRowCount: Int
    /// `purchase_counts` rows pre-filled (lifetime and ISO week).
    var purchaseCountRowCount: Int
    /// `balances` rows pre-filled.
    var balanceRowCount: Int
    /// What the rows are, in one sentence.
    var contents: String

    /// The figures of a made pre-fill.
    init(_ ledger: BenchPrefilledLedger) {
        let summary = ledger.summary
        prefillTransactionCount = summary.transactionCount
        prefillPlayerCount = ledger.playerCount
        prefillBatchRowCount = ledger.batchRowCount
        prefillSeconds = summary.seconds
        prefillRowsPerSecond = Double(summary.transactionCount) / max(summary.seconds, 1e-9)
        fileBytes = summary.fileBytes
        eventRowCount = summary.eventCount
        purchaseCountRowCount = summary.purchaseCountRowCount
        balanceRowCount = summary.balanceRowCount
        contents =
            "finished purchases with hashed UUID-like transaction IDs over two years, each with its "
            + "purchaseGranted event and balances, "
            + (summary.purchaseCountRowCount > 0 ? "purchase counts" : "no purchase counts (the product has no limit)")
            + "; no pending finishes"
    }

    /// The text report's lines for the pre-fill.
    var textLines: [String] {
        [
            "R6 pre-fill: \(prefillTransactionCount) purchases over \(prefillPlayerCount) players in "
                + String(format: "%.1f s (%.0f purchases/s), ", prefillSeconds, prefillRowsPerSecond)
                + String(format: "file %.2f GB", Double(fileBytes) / 1e9),
            "  also \(eventRowCount) events, \(purchaseCountRowCount) purchase counts, \(balanceRowCount) balances;"
                + " batches of \(prefillBatchRowCount)",
        ]
    }
}
