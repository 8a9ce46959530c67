/// `inventory`: each player's item stacks. Cleared by a game reset.
enum InventoryTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "inventory", columns: [SQLColumn("player_id", .key), SQLColumn("item_id", .key), SQLColumn("quantity", .integer)],
        primaryKey: ["player_id", "item_id"])

    static let selectByPlayerSQL = """
        SELECT item_id, quantity FROM inventory WHERE player_id = ? AND quantity != 0 ORDER BY item_id LIMIT ?
        """
    static let selectQuantitySQL = "SELECT quantity FROM inventory WHERE player_id = ? AND item_id = ?"
    static let setQuantitySQL = """
        INSERT INTO inventory (player_id, item_id, quantity) VALUES (?, ?, ?)
        ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = excluded.quantity
        """
    /// One statement adds to the stored value (`AssetTables.creditGuard`).
    static let creditSQL = """
        INSERT INTO inventory AS i (player_id, item_id, quantity) VALUES (?1, ?2, ?3)
        ON CONFLICT (player_id, item_id) DO UPDATE SET quantity = i.quantity + excluded.quantity
        WHERE \(AssetTables.creditGuard(alias: "i", column: "quantity"))
        RETURNING quantity
        """
    /// Takes the amount only where enough is held, in the same statement as the check.
    static let spendSQL = """
        UPDATE inventory SET quantity = quantity - ?1 WHERE player_id = ?2 AND item_id = ?3 AND quantity >= ?1
        RETURNING quantity
        """
    /// Players holding a positive stack of each item, for `ledger catalog diff`.
    static let holderCountsSQL = """
        SELECT item_id, count(*) FROM inventory WHERE quantity > 0 GROUP BY item_id ORDER BY item_id LIMIT ?
        """
    static let resetSQL = "DELETE FROM inventory WHERE player_id = ?"
}

extension LedgerReader {
    /// A player's non-zero item stacks.
    public func inventory(playerID: String) throws(LedgerError) -> [String: Int64] {
        try amounts(InventoryTable.selectByPlayerSQL, playerID: playerID)
    }
}

extension LedgerWriter {
    /// Adds `delta` (may be negative) to an item stack and returns the new stack size.
    public func addToInventory(playerID: String, itemID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try credit(
            AssetCredit(select: InventoryTable.selectQuantitySQL, set: InventoryTable.setQuantitySQL, add: InventoryTable.creditSQL),
            playerID: playerID, assetID: itemID, delta: delta)
    }
}
