/// `balances`: each player's currency balances. Purchases and the game's own operations both
/// write here, so balances have one source of truth. Cleared by a game reset, except debt.
package enum BalancesTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    package static let schema = SQLTable(
        "balances", columns: [SQLColumn("player_id", .key), SQLColumn("currency_id", .key), SQLColumn("amount", .integer)],
        primaryKey: ["player_id", "currency_id"])

    static let selectByPlayerSQL = """
        SELECT currency_id, amount FROM balances WHERE player_id = ? AND amount != 0 ORDER BY currency_id LIMIT ?
        """
    /// A credit where writes run one at a time: read, add in Swift (refusing an overflow), set.
    package static let selectAmountSQL = "SELECT amount FROM balances WHERE player_id = ? AND currency_id = ?"
    package static let setAmountSQL = """
        INSERT INTO balances (player_id, currency_id, amount) VALUES (?, ?, ?)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
    /// A credit where writes run concurrently: one statement adds to the stored value
    /// (`AssetTables.creditGuard`).
    package static let creditSQL = """
        INSERT INTO balances AS b (player_id, currency_id, amount) VALUES (?1, ?2, ?3)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = b.amount + excluded.amount
        WHERE \(AssetTables.creditGuard(alias: "b", column: "amount"))
        RETURNING amount
        """
    /// Takes the amount only where enough is held, in the same statement as the check.
    static let spendSQL = """
        UPDATE balances SET amount = amount - ?1 WHERE player_id = ?2 AND currency_id = ?3 AND amount >= ?1
        RETURNING amount
        """
    /// Players holding a positive balance of each currency, for `ledger catalog diff`.
    static let holderCountsSQL = """
        SELECT currency_id, count(*) FROM balances WHERE amount > 0 GROUP BY currency_id ORDER BY currency_id LIMIT ?
        """
    /// A reset keeps debt: it must not erase what a clawback left owed.
    static let resetSQL = "DELETE FROM balances WHERE player_id = ? AND amount >= 0"
}

/// The statements of a credit to one asset table (`LedgerWriter.credit`).
struct AssetCredit {
    /// Reads the amount (player, asset).
    let select: String
    /// Sets the amount (player, asset, amount).
    let set: String
    /// Adds to the amount and returns it (player, asset, delta).
    let add: String
}

/// What the per-player asset tables (`balances`, `inventory`) share.
enum AssetTables {
    /// Most balances or item stacks read for one player.
    static let rowCountMax = 10_000

    /// The condition of a credit's update: the sum stays inside a 64-bit integer. Without it
    /// SQLite would silently turn an overflowing sum into a REAL and PostgreSQL would fail the
    /// transaction; with it an overflowing credit changes nothing and returns no row, which
    /// `credit` reports as `.amountOverflow`. Each bound is computed without overflowing.
    static func creditGuard(alias: String, column: String) -> String {
        """
        (excluded.\(column) >= 0 AND \(alias).\(column) <= 9223372036854775807 - excluded.\(column))
            OR (excluded.\(column) < 0 AND \(alias).\(column) >= -9223372036854775807 - 1 - excluded.\(column))
        """
    }
}

extension LedgerReader {
    /// A player's non-zero currency balances.
    public func balances(playerID: String) throws(LedgerError) -> [String: Int64] {
        try amounts(BalancesTable.selectByPlayerSQL, playerID: playerID)
    }

    /// A player's non-zero amounts from a two-column query, by asset ID.
    func amounts(_ statement: String, playerID: String) throws(LedgerError) -> [String: Int64] {
        let found = try rows(statement, [.text(playerID), .count(AssetTables.rowCountMax)], limit: AssetTables.rowCountMax) {
            (row) throws(LedgerError) in (try row.text(0), try row.int64(1))
        }
        return Dictionary(found, uniquingKeysWith: { first, _ in first })
    }

    /// How many players own each entitlement, or hold a positive balance of each currency or a
    /// positive stack of each item, for at most `limit` IDs of `kind`.
    public func ownerCounts(of kind: AssetKind, limit: Int) throws(LedgerError) -> [String: Int] {
        let statement = switch kind {
        case .entitlement: EntitlementsTable.ownerCountsSQL
        case .currency: BalancesTable.holderCountsSQL
        case .item: InventoryTable.holderCountsSQL
        }
        let counts = try rows(statement, [.count(limit)], limit: limit) { (row) throws(LedgerError) in
            (try row.text(0), Int(try row.int64(1)))
        }
        return Dictionary(counts, uniquingKeysWith: { first, _ in first })
    }
}

extension LedgerWriter {
    /// Adds `delta` to an amount and returns the new amount; a sum past a 64-bit integer is
    /// `.amountOverflow` and changes nothing.
    ///
    /// Where writes run one at a time (SQLite) it reads, adds in Swift and sets: nothing can
    /// change the row in between, and SQLite's `RETURNING` would collect its row in a temporary
    /// b-tree, 18,000 instructions per credit more than the read. Where writes run concurrently
    /// (PostgreSQL) it is one guarded statement, so two credits never lose one; no row back
    /// means the guard refused an overflow.
    func credit(_ statements: AssetCredit, playerID: String, assetID: String, delta: Int64) throws(LedgerError) -> Int64 {
        let key: [SQLValue] = [.text(playerID), .text(assetID)]
        guard dialect.serializesWrites else {
            guard let amount = try one(statements.add, key + [.integer(delta)], { (row) throws(LedgerError) in try row.int64(0) })
            else { throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID) }
            return amount
        }
        let current = try one(statements.select, key) { (row) throws(LedgerError) in try row.int64(0) } ?? 0
        let (sum, overflow) = current.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID) }
        try run(statements.set, key + [.integer(sum)])
        return sum
    }

    /// Adds `delta` (may be negative) to a balance and returns the new balance.
    /// Throws `.amountOverflow` instead of wrapping; callers check spends beforehand.
    public func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try credit(
            AssetCredit(select: BalancesTable.selectAmountSQL, set: BalancesTable.setAmountSQL, add: BalancesTable.creditSQL),
            playerID: playerID, assetID: currencyID, delta: delta)
    }

    /// Takes `amount` (> 0) of a currency or item only if the player holds at least that much,
    /// in one atomic step, and returns what is left; nil, with nothing changed, when they hold less.
    public func spend(playerID: String, asset: AssetKind, assetID: String, amount: Int64) throws(LedgerError) -> Int64? {
        let statement: String
        switch asset {
        case .currency: statement = BalancesTable.spendSQL
        case .item: statement = InventoryTable.spendSQL
        case .entitlement: throw LedgerError.invalidArgument("an entitlement is not spent")
        }
        guard amount > 0 else { throw LedgerError.invalidArgument("a spend takes a positive amount, not \(amount)") }
        return try one(statement, [.integer(amount), .text(playerID), .text(assetID)]) { (row) throws(LedgerError) in
            try row.int64(0)
        }
    }
}
