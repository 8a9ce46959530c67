import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Benchmark R1: the fastest the ledger's write could be on this disk, with prepared
/// statements and the ledger's pragmas (WAL, the given `synchronous`, foreign keys on). It
/// runs on the store's own thin wrapper of the C API (`SQLiteConnection`, `SQLiteStatement`),
/// as R1L does, so the two differ only in what they write.
///
/// Each transaction is what one grant needs at minimum: `BEGIN IMMEDIATE`; insert a
/// ledger row, pending its finish (so in the partial index of pending rows); upsert a
/// balance; `COMMIT`. The tables mirror the shape of the ledger's `ledger_transactions` and
/// `balances`, without the ledger's other bookkeeping.
public enum RawSQLiteBaseline {
    /// Distinct players the balance upserts are spread over.
    static let playerCountMax = 50

    private static let schemaSQL = """
        CREATE TABLE IF NOT EXISTS ledger_transactions (
            store TEXT NOT NULL, transaction_id TEXT NOT NULL, player_id TEXT NOT NULL,
            product_id TEXT NOT NULL, quantity INTEGER NOT NULL, fulfilled_at_ms INTEGER NOT NULL,
            grants TEXT NOT NULL, finished_at_ms INTEGER,
            PRIMARY KEY (store, transaction_id)
        ) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS ledger_transactions_by_player ON ledger_transactions (player_id, fulfilled_at_ms);
        CREATE INDEX IF NOT EXISTS ledger_transactions_pending ON ledger_transactions (fulfilled_at_ms)
            WHERE finished_at_ms IS NULL;
        CREATE TABLE IF NOT EXISTS balances (
            player_id TEXT NOT NULL, currency_id TEXT NOT NULL, amount INTEGER NOT NULL,
            PRIMARY KEY (player_id, currency_id)
        ) WITHOUT ROWID;
        """

    private static let insertLedgerSQL = """
        INSERT INTO ledger_transactions (store, transaction_id, player_id, product_id, quantity, fulfilled_at_ms, grants)
        VALUES ('test', ?1, ?2, 'gems_small', 1, ?3, '[{"currency":"gems","amount":100}]')
        """
    private static let upsertBalanceSQL = """
        INSERT INTO balances (player_id, currency_id, amount) VALUES (?1, 'gems', 100)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = amount + 100
        """

    /// Runs `count` grant-shaped transactions on a new database at `path` (which must not
    /// exist; it and its WAL files are left for the caller to remove) and returns
    /// transactions per second.
    public static func run(path: String, synchronous: SQLiteLedgerStore.Synchronous, count: Int) throws -> Double {
        precondition(count >= 1, "count must be at least 1")
        let db = try SQLiteConnection(path: path, mode: .readWriteCreate)
        try db.execute("PRAGMA journal_mode = WAL")
        try db.execute("PRAGMA synchronous = \(synchronous.rawValue)")
        try db.execute("PRAGMA foreign_keys = ON")
        try db.execute(schemaSQL)
        let insertLedger = try db.statement(insertLedgerSQL)
        let upsertBalance = try db.statement(upsertBalanceSQL)
        let begin = try db.statement("BEGIN IMMEDIATE")
        let commit = try db.statement("COMMIT")

        let start = ContinuousClock.now
        for index in 0..<count {
            let transactionID = SQLiteValue.text("raw-\(index)")
            let playerID = SQLiteValue.text("player-\(index % playerCountMax)")
            let now = SQLiteValue.integer(Date().ledgerMilliseconds)
            try begin.run()
            do {
                try insertLedger.run([transactionID, playerID, now])
                try upsertBalance.run([playerID])
                try commit.run()
            } catch {
                db.rollbackIfOpen()
                throw error
            }
        }
        return Double(count) / BenchWorkloads.seconds(ContinuousClock.now - start)
    }
}
