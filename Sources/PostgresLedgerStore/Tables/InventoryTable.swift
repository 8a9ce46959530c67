import FulfillmentLedger

/// `inventory`: each player's item stacks. Cleared by a game reset.
enum InventoryTable {
    static let createSQL = """
        CREATE TABLE inventory (
            player_id text COLLATE "C" NOT NULL,
            item_id text COLLATE "C" NOT NULL,
            quantity bigint NOT NULL,
            PRIMARY KEY (player_id, item_id)
        );
        """

    static let selectByPlayerSQL = """
        SELECT item_id, quantity FROM inventory WHERE player_id = $1 AND quantity != 0 ORDER BY item_id LIMIT $2
        """
    static let creditSQL = """
        INSERT INTO inventory AS i (player_id, item_id, quantity) VALUES ($1, $2, $3)
        ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = i.quantity + excluded.quantity
        RETURNING quantity
        """
    static let spendSQL = """
        UPDATE inventory SET quantity = quantity - $1 WHERE player_id = $2 AND item_id = $3 AND quantity >= $1
        RETURNING quantity
        """
    static let holderCountsSQL = """
        SELECT item_id, count(*) FROM inventory WHERE quantity > 0 GROUP BY item_id ORDER BY item_id LIMIT $1
        """
    static let resetSQL = "DELETE FROM inventory WHERE player_id = $1"
}

extension PostgresLedgerSession {
    func inventory(playerID: String) throws(LedgerError) -> [String: Int64] {
        try amounts(InventoryTable.selectByPlayerSQL, playerID: playerID)
    }

    func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try credit(InventoryTable.creditSQL, playerID: playerID, assetID: itemID, delta: delta)
    }
}
