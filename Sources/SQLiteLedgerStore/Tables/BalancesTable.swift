import FulfillmentLedger

/// `balances`: each player's currency balances. Purchases and the game's own operations
/// both write here, so balances have one source of truth. Cleared by a game reset.
package enum BalancesTable {
    static let createSQL = """
        CREATE TABLE balances (
            player_id TEXT NOT NULL,
            currency_id TEXT NOT NULL,
            amount INTEGER NOT NULL,
            PRIMARY KEY (player_id, currency_id)
        ) WITHOUT ROWID;
        """

    /// Players holding a positive balance of each currency, for `ledger catalog diff`.
    static let holderCountsSQL =
        "SELECT currency_id, count(*) FROM balances WHERE amount > 0 GROUP BY currency_id ORDER BY currency_id LIMIT ?"

    package static let selectAmountSQL = "SELECT amount FROM balances WHERE player_id = ? AND currency_id = ?"
    package static let upsertSQL = """
        INSERT INTO balances (player_id, currency_id, amount) VALUES (?, ?, ?)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
}

extension SQLiteLedgerSession {
    func balances(playerID: String) throws(LedgerError) -> [String: Int64] {
        try sql { () throws(SQLiteError) in
            let rows = try connection.statement(
                "SELECT currency_id, amount FROM balances WHERE player_id = ? AND amount != 0 ORDER BY currency_id"
            ).query([.text(playerID)], rowCountMax: AssetTables.rowCountMax) { row in (row.text(0), row.int64(1)) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }

    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(BalancesTable.selectAmountSQL)
                .queryOne([.text(playerID), .text(currencyID)]) { $0.int64(0) } ?? 0
        }.adding(delta, playerID: playerID, assetID: currencyID) { (amount: Int64) throws(LedgerError) in
            // Swift checks the sum: SQLite would silently turn an overflowing integer into a REAL.
            try sql { () throws(SQLiteError) in
                try connection.statement(BalancesTable.upsertSQL)
                    .run([.text(playerID), .text(currencyID), .integer(amount)])
            }
        }
    }

    /// Clears a player's balances (game reset), except debt: a reset must not erase what a
    /// clawback left owed.
    func deleteBalances(playerID: String) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement("DELETE FROM balances WHERE player_id = ? AND amount >= 0").run([.text(playerID)])
        }
    }
}

/// Shared limits of the per-player asset tables.
enum AssetTables {
    /// Most balances or item stacks read for one player.
    static let rowCountMax = 10_000
}

extension SQLiteLedgerSession {
    /// Players owning each entitlement, or holding each currency or item, from its table.
    func ownerCounts(of kind: AssetKind, limit: Int) throws(LedgerError) -> [String: Int] {
        let statement = switch kind {
        case .entitlement: EntitlementsTable.ownerCountsSQL
        case .currency: BalancesTable.holderCountsSQL
        case .item: InventoryTable.holderCountsSQL
        }
        return try sql { () throws(SQLiteError) in
            let rows = try connection.statement(statement)
                .query([.integer(Int64(limit))], rowCountMax: limit) { row in (row.text(0), Int(row.int64(1))) }
            return Dictionary(rows, uniquingKeysWith: { first, _ in first })
        }
    }
}

extension Int64 {
    /// Adds `delta` with an overflow check, stores the sum through `store`, and returns it.
    func adding(
        _ delta: Int64, playerID: String, assetID: String, store: (Int64) throws(LedgerError) -> Void
    ) throws(LedgerError) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID) }
        try store(sum)
        return sum
    }
}

/// The game's spends, on `balances` or `inventory`: one statement that takes the amount only
/// where enough is held, so a concurrent refund or spend can never slip between a check and
/// the take, in any engine.
enum SpendStatements {
    static let balanceSQL = """
        UPDATE balances SET amount = amount - ?
        WHERE player_id = ? AND currency_id = ? AND amount >= ? RETURNING amount
        """
    static let inventorySQL = """
        UPDATE inventory SET quantity = quantity - ?
        WHERE player_id = ? AND item_id = ? AND quantity >= ? RETURNING quantity
        """
}

extension SQLiteLedgerSession {
    func spend(playerID: String, asset: AssetKind, assetID: String, amount: Int64) throws(LedgerError) -> Int64? {
        let statement: String
        switch asset {
        case .currency: statement = SpendStatements.balanceSQL
        case .item: statement = SpendStatements.inventorySQL
        case .entitlement: throw LedgerError.invalidArgument("an entitlement is not spent")
        }
        guard amount > 0 else { throw LedgerError.invalidArgument("a spend takes a positive amount, not \(amount)") }
        return try sql { () throws(SQLiteError) in
            try connection.statement(statement)
                .queryOne([.integer(amount), .text(playerID), .text(assetID), .integer(amount)]) { $0.int64(0) }
        }
    }
}
