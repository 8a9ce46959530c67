/// Writes of ledger state, inside one `LedgerStore.write` call only, besides every read of
/// `LedgerReader`. Each table's writes live in its file (`Storage/Tables/`).
public final class LedgerWriter: LedgerReader {
    /// Runs a statement and returns how many rows it changed.
    @discardableResult
    package func run(_ sql: String, _ parameters: [SQLValue]) throws(LedgerError) -> Int {
        try engine.execute(sql, parameters)
    }
}
