import Foundation
import FulfillmentLedger

/// `purchase_counts`: purchases per player, product and period (`lifetime`, `2026-W48`),
/// read by the eligibility check before payment. Cleared by a game reset.
package enum PurchaseCountsTable {
    static let createSQL = """
        CREATE TABLE purchase_counts (
            player_id TEXT NOT NULL,
            product_id TEXT NOT NULL,
            period TEXT NOT NULL,
            count INTEGER NOT NULL CHECK (count >= 0),
            PRIMARY KEY (player_id, product_id, period)
        ) WITHOUT ROWID;
        """

    package static let incrementSQL = """
        INSERT INTO purchase_counts (player_id, product_id, period, count) VALUES (?, ?, ?, ?)
        ON CONFLICT (player_id, product_id, period) DO UPDATE SET count = count + excluded.count
        """
}

extension SQLiteLedgerSession {
    func purchaseCount(playerID: String, productID: String, period: String) throws(LedgerError) -> Int {
        try sql { () throws(SQLiteError) in
            let count = try connection.statement(
                "SELECT count FROM purchase_counts WHERE player_id = ? AND product_id = ? AND period = ?"
            ).queryOne([.text(playerID), .text(productID), .text(period)]) { $0.int64(0) }
            return Int(count ?? 0)
        }
    }

    func incrementPurchaseCount(playerID: String, productID: String, period: String, by count: Int) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(PurchaseCountsTable.incrementSQL)
                .run([.text(playerID), .text(productID), .text(period), .integer(Int64(count))])
        }
    }

    /// Clears a player's purchase counts (game reset).
    func deletePurchaseCounts(playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement("DELETE FROM purchase_counts WHERE player_id = ?").run([.text(playerID)])
        }
    }

    func resetProgress(playerID: String, at date: Date) throws(LedgerError) {
        try deleteBalances(playerID: playerID)
        try setLastReset(playerID: playerID, at: date)
        try deleteInventory(playerID: playerID)
        try deletePurchaseCounts(playerID: playerID)
    }
}
