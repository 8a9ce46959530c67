import Foundation

/// `purchase_counts`: purchases per player, product and limit period (`lifetime`, `2026-W48`),
/// read by the eligibility check before payment. Cleared by a game reset.
package enum PurchaseCountsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "purchase_counts",
        columns: [
            SQLColumn("player_id", .key), SQLColumn("product_id", .key), SQLColumn("period", .key),
            SQLColumn("count", .integer, check: "count >= 0"),
        ],
        primaryKey: ["player_id", "product_id", "period"])

    static let selectSQL = "SELECT count FROM purchase_counts WHERE player_id = ? AND product_id = ? AND period = ?"
    /// One statement adds to the stored count, so concurrent purchases never lose one.
    package static let incrementSQL = """
        INSERT INTO purchase_counts AS c (player_id, product_id, period, count) VALUES (?, ?, ?, ?)
        ON CONFLICT (player_id, product_id, period) DO UPDATE SET count = c.count + excluded.count
        """
    static let resetSQL = "DELETE FROM purchase_counts WHERE player_id = ?"
}

extension LedgerReader {
    /// Units of a product bought by a player in a limit period (`lifetime` or `2026-W48`).
    public func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int {
        let count = try one(PurchaseCountsTable.selectSQL, [.text(playerID), .text(productID), .text(period)]) {
            (row) throws(LedgerError) in try row.int64(0)
        }
        return Int(count ?? 0)
    }
}

extension LedgerWriter {
    /// Adds `count` units to a product's purchase count for a period.
    public func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError) {
        try run(PurchaseCountsTable.incrementSQL, [.text(playerID), .text(productID), .text(period), .count(count)])
    }

    /// A reset clears balances (but not debt), inventory and purchase counts, and records its time.
    public func resetProgress(playerID: String, at date: Date) throws(LedgerError) {
        try run(BalancesTable.resetSQL, [.text(playerID)])
        try run(InventoryTable.resetSQL, [.text(playerID)])
        try run(PurchaseCountsTable.resetSQL, [.text(playerID)])
        try setLastReset(playerID: playerID, at: date)
    }
}
