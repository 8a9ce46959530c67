import FulfillmentLedger

/// `absorbed_debts`: per player and currency, restored debt that the player's other currency
/// covered at once, which a later floor refund may take back into debt (see
/// `LedgerReader.absorbedDebt`). Written only by refunds and reversals; kept by a reset.
enum AbsorbedDebtsTable {
    static let createSQL = """
        CREATE TABLE absorbed_debts (
            player_id text COLLATE "C" NOT NULL,
            currency_id text COLLATE "C" NOT NULL,
            amount bigint NOT NULL CHECK (amount > 0),
            PRIMARY KEY (player_id, currency_id)
        );
        """

    static let selectSQL = "SELECT amount FROM absorbed_debts WHERE player_id = $1 AND currency_id = $2"
    static let upsertSQL = """
        INSERT INTO absorbed_debts (player_id, currency_id, amount) VALUES ($1, $2, $3)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
    static let deleteSQL = "DELETE FROM absorbed_debts WHERE player_id = $1 AND currency_id = $2"
}

extension PostgresLedgerSession {
    func absorbedDebt(playerID: String, currencyID: String) throws(LedgerError) -> Int64 {
        try one(AbsorbedDebtsTable.selectSQL, [.text(playerID), .text(currencyID)]) { (row) throws(PostgresError) in
            try row.int64(0)
        } ?? 0
    }

    // Read, then write: the transaction is SERIALIZABLE, so a concurrent change of the same
    // row fails one of the two and it runs again.
    func addToAbsorbedDebt(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        let current = try absorbedDebt(playerID: playerID, currencyID: currencyID)
        let (sum, overflow) = current.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: currencyID) }
        let value = max(0, sum)
        if value > 0 {
            try run(AbsorbedDebtsTable.upsertSQL, [.text(playerID), .text(currencyID), .int64(value)])
        } else {
            try run(AbsorbedDebtsTable.deleteSQL, [.text(playerID), .text(currencyID)])
        }
        return value
    }
}
