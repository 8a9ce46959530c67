import Foundation
import FulfillmentLedger

/// `purchase_counts`: purchases per player, product and limit period (`lifetime`, `2026-W48`),
/// kept only for products with a limit, read by the eligibility check. Cleared by a game reset.
enum PurchaseCountsTable {
    static let createSQL = """
        CREATE TABLE purchase_counts (
            player_id text COLLATE "C" NOT NULL,
            product_id text COLLATE "C" NOT NULL,
            period text COLLATE "C" NOT NULL,
            count bigint NOT NULL CHECK (count >= 0),
            PRIMARY KEY (player_id, product_id, period)
        );
        """

    static let selectSQL = "SELECT count FROM purchase_counts WHERE player_id = $1 AND product_id = $2 AND period = $3"
    static let incrementSQL = """
        INSERT INTO purchase_counts AS c (player_id, product_id, period, count) VALUES ($1, $2, $3, $4)
        ON CONFLICT (player_id, product_id, period) DO UPDATE SET count = c.count + excluded.count
        """
    static let resetSQL = "DELETE FROM purchase_counts WHERE player_id = $1"
}

extension PostgresLedgerSession {
    func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int {
        let count = try one(PurchaseCountsTable.selectSQL, [.text(playerID), .text(productID), .text(period)]) {
            (row) throws(PostgresError) in try row.int64(0)
        }
        return Int(count ?? 0)
    }

    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError) {
        try run(PurchaseCountsTable.incrementSQL, [.text(playerID), .text(productID), .text(period), .count(count)])
    }

    func resetProgress(playerID: String, at date: Date) throws(LedgerError) {
        try run(BalancesTable.resetSQL, [.text(playerID)])
        try run(InventoryTable.resetSQL, [.text(playerID)])
        try run(PurchaseCountsTable.resetSQL, [.text(playerID)])
        try setLastReset(playerID: playerID, at: date)
    }
}
