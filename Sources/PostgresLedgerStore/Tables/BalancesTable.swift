import FulfillmentLedger

/// `balances`: each player's currency balances. Purchases and the game's own operations both
/// write here, so balances have one source of truth. Cleared by a game reset, except debt.
enum BalancesTable {
    static let createSQL = """
        CREATE TABLE balances (
            player_id text COLLATE "C" NOT NULL,
            currency_id text COLLATE "C" NOT NULL,
            amount bigint NOT NULL,
            PRIMARY KEY (player_id, currency_id)
        );
        """

    static let selectByPlayerSQL = """
        SELECT currency_id, amount FROM balances WHERE player_id = $1 AND amount != 0 ORDER BY currency_id LIMIT $2
        """
    /// One statement adds to the stored value, so concurrent credits never lose one; a sum past
    /// `bigint` fails with 22003 instead of wrapping.
    static let creditSQL = """
        INSERT INTO balances AS b (player_id, currency_id, amount) VALUES ($1, $2, $3)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = b.amount + excluded.amount
        RETURNING amount
        """
    /// Takes the amount only where enough is held, in the same statement as the check.
    static let spendSQL = """
        UPDATE balances SET amount = amount - $1 WHERE player_id = $2 AND currency_id = $3 AND amount >= $1
        RETURNING amount
        """
    static let holderCountsSQL = """
        SELECT currency_id, count(*) FROM balances WHERE amount > 0 GROUP BY currency_id ORDER BY currency_id LIMIT $1
        """
    /// A reset keeps debt: it must not erase what a clawback left owed.
    static let resetSQL = "DELETE FROM balances WHERE player_id = $1 AND amount >= 0"
}

/// Shared limits of the per-player asset tables.
enum AssetTables {
    /// Most balances or item stacks read for one player.
    static let rowCountMax = 10_000
    /// numeric_value_out_of_range: a sum past `bigint`.
    static let overflowState = "22003"
}

extension PostgresLedgerSession {
    func balances(playerID: String) throws(LedgerError) -> [String: Int64] {
        try amounts(BalancesTable.selectByPlayerSQL, playerID: playerID)
    }

    func addToBalance(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        try credit(BalancesTable.creditSQL, playerID: playerID, assetID: currencyID, delta: delta)
    }

    /// A player's non-zero amounts from a two-column query, by asset ID.
    func amounts(_ statement: String, playerID: String) throws(LedgerError) -> [String: Int64] {
        let found = try rows(statement, [.text(playerID), .count(AssetTables.rowCountMax)], limit: AssetTables.rowCountMax) {
            (row) throws(PostgresError) in (try row.text(0), try row.int64(1))
        }
        return Dictionary(found, uniquingKeysWith: { first, _ in first })
    }

    /// Runs an atomic credit statement returning the new amount; an overflow is `.amountOverflow`.
    func credit(_ statement: String, playerID: String, assetID: String, delta: Int64) throws(LedgerError) -> Int64 {
        do throws(LedgerError) {
            guard let amount = try one(statement, [.text(playerID), .text(assetID), .int64(delta)], { (row) throws(PostgresError) in
                try row.int64(0)
            }) else { throw corrupt("the new amount of \(assetID) for \(playerID)") }
            return amount
        } catch {
            if firstFailure?.sqlState == AssetTables.overflowState {
                throw LedgerError.amountOverflow(playerID: playerID, assetID: assetID)
            }
            throw error
        }
    }

    func spend(playerID: String, asset: AssetKind, assetID: String, amount: Int64) throws(LedgerError) -> Int64? {
        let statement: String
        switch asset {
        case .currency: statement = BalancesTable.spendSQL
        case .item: statement = InventoryTable.spendSQL
        case .entitlement: throw LedgerError.invalidArgument("an entitlement is not spent")
        }
        guard amount > 0 else { throw LedgerError.invalidArgument("a spend takes a positive amount, not \(amount)") }
        return try one(statement, [.int64(amount), .text(playerID), .text(assetID)]) { (row) throws(PostgresError) in
            try row.int64(0)
        }
    }

    func ownerCounts(of kind: AssetKind, limit: Int) throws(LedgerError) -> [String: Int] {
        let statement = switch kind {
        case .entitlement: EntitlementsTable.ownerCountsSQL
        case .currency: BalancesTable.holderCountsSQL
        case .item: InventoryTable.holderCountsSQL
        }
        let counts = try rows(statement, [.count(limit)], limit: limit) { (row) throws(PostgresError) in
            (try row.text(0), Int(try row.int64(1)))
        }
        return Dictionary(counts, uniquingKeysWith: { first, _ in first })
    }
}
