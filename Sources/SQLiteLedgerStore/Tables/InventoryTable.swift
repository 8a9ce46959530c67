import FulfillmentLedger

/// `inventory`: each player's item stacks. Cleared by a game reset.
enum InventoryTable {
    static let createSQL = """
        CREATE TABLE inventory (
            player_id TEXT NOT NULL,
            item_id TEXT NOT NULL,
            quantity INTEGER NOT NULL,
            PRIMARY KEY (player_id, item_id)
        ) WITHOUT ROWID;
        """

    /// Players holding a positive stack of each item, for `ledger catalog diff`.
    static let holderCountsSQL =
        "SELECT item_id, count(*) FROM inventory WHERE quantity > 0 GROUP BY item_id ORDER BY item_id LIMIT ?"
}

extension SQLiteLedgerSession {
    func inventory(playerID: String) throws(LedgerError) -> [String: Int64] {
        try sql { () throws(SQLiteError) in
            let rows = try connection.statement(
                "SELECT item_id, quantity FROM inventory WHERE player_id = ? AND quantity != 0 ORDER BY item_id"
            ).query([.text(playerID)], rowCountMax: AssetTables.rowCountMax) { row in (row.text(0), row.int64(1)) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement("SELECT quantity FROM inventory WHERE player_id = ? AND item_id = ?")
                .queryOne([.text(playerID), .text(itemID)]) { $0.int64(0) } ?? 0
        }.adding(delta, playerID: playerID, assetID: itemID) { (quantity: Int64) throws(LedgerError) in
            try sql { () throws(SQLiteError) in
                try connection.statement(
                    """
                    INSERT INTO inventory (player_id, item_id, quantity) VALUES (?, ?, ?)
                    ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = excluded.quantity
                    """
                ).run([.text(playerID), .text(itemID), .integer(quantity)])
            }
        }
    }

    /// Clears a player's inventory (game reset).
    func deleteInventory(playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement("DELETE FROM inventory WHERE player_id = ?").run([.text(playerID)])
        }
    }
}
