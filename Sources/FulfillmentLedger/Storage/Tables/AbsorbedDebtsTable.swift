/// `absorbed_debts`: per player and currency, restored debt that the player's other currency
/// covered at once, which a later floor refund may take back into debt (see
/// `LedgerReader.absorbedDebt`). Written only by refunds and reversals; kept by a reset.
enum AbsorbedDebtsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "absorbed_debts",
        columns: [SQLColumn("player_id", .key), SQLColumn("currency_id", .key), SQLColumn("amount", .integer, check: "amount > 0")],
        primaryKey: ["player_id", "currency_id"])

    static let selectSQL = "SELECT amount FROM absorbed_debts WHERE player_id = ? AND currency_id = ?"
    static let upsertSQL = """
        INSERT INTO absorbed_debts (player_id, currency_id, amount) VALUES (?, ?, ?)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
    static let deleteSQL = "DELETE FROM absorbed_debts WHERE player_id = ? AND currency_id = ?"
}

extension LedgerReader {
    /// Restored debt that the player's other currency covered at once (0 if none): a refund
    /// owed its grant's repaid debt again while the balance was positive, so other gems paid
    /// it. A later floor refund may take up to this much into debt beyond the balance, so
    /// refunding in any order never erases debt. Kept by a reset, like debt.
    public func absorbedDebt(playerID: String, currencyID: String) throws(LedgerError) -> Int64 {
        try one(AbsorbedDebtsTable.selectSQL, [.text(playerID), .text(currencyID)]) { (row) throws(LedgerError) in
            try row.int64(0)
        } ?? 0
    }
}

extension LedgerWriter {
    // Read, then write: one writer at a time (SQLite) or a SERIALIZABLE transaction
    // (PostgreSQL), where a concurrent change of the same row fails one of the two and it runs again.
    /// Adds `delta` (may be negative) to the player's absorbed debt, never below zero; returns the new value.
    public func addToAbsorbedDebt(playerID: String, currencyID: String, delta: Int64) throws(LedgerError) -> Int64 {
        let current = try absorbedDebt(playerID: playerID, currencyID: currencyID)
        let (sum, overflow) = current.addingReportingOverflow(delta)
        guard !overflow else { throw LedgerError.amountOverflow(playerID: playerID, assetID: currencyID) }
        let value = max(0, sum)
        if value > 0 {
            try run(AbsorbedDebtsTable.upsertSQL, [.text(playerID), .text(currencyID), .integer(value)])
        } else {
            try run(AbsorbedDebtsTable.deleteSQL, [.text(playerID), .text(currencyID)])
        }
        return value
    }
}
