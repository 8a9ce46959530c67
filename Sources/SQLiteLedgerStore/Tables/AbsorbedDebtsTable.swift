import FulfillmentLedger

/// `absorbed_debts`: per player and currency, restored debt that the player's other currency
/// covered at once, which a later floor refund may take back into debt (see
/// `LedgerReader.absorbedDebt`). Written only by refunds and reversals; kept by a reset.
enum AbsorbedDebtsTable {
    /// Added by migration 5.
    static let createSQL = """
        CREATE TABLE absorbed_debts (
            player_id TEXT NOT NULL,
            currency_id TEXT NOT NULL,
            amount INTEGER NOT NULL CHECK (amount > 0),
            PRIMARY KEY (player_id, currency_id)
        ) WITHOUT ROWID;
        """

    static let selectSQL = "SELECT amount FROM absorbed_debts WHERE player_id = ? AND currency_id = ?"
    static let upsertSQL = """
        INSERT INTO absorbed_debts (player_id, currency_id, amount) VALUES (?, ?, ?)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
    static let deleteSQL = "DELETE FROM absorbed_debts WHERE player_id = ? AND currency_id = ?"
}

extension SQLiteLedgerSession {
    func absorbedDebt(playerID: String, currencyID: String) throws(LedgerError) -> Int64 {
        try sql { () throws(SQLiteError) in
            try connection.statement(AbsorbedDebtsTable.selectSQL)
                .queryOne([.text(playerID), .text(currencyID)]) { $0.int64(0) } ?? 0
        }
    }

    func addToAbsorbedDebt(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        let current = try absorbedDebt(playerID: playerID, currencyID: currencyID)
        let (sum, overflow) = current.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: currencyID) }
        let value = max(0, sum)
        try sql { () throws(SQLiteError) in
            if value > 0 {
                try connection.statement(AbsorbedDebtsTable.upsertSQL)
                    .run([.text(playerID), .text(currencyID), .integer(value)])
            } else {
                try connection.statement(AbsorbedDebtsTable.deleteSQL).run([.text(playerID), .text(currencyID)])
            }
        }
        return value
    }
}
