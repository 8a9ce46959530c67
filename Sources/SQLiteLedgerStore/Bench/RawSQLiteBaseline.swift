import CSQLite
import Foundation

/// Benchmark R1: the fastest the ledger's write could be on this disk, written straight
/// against the SQLite C API with prepared statements and the ledger's pragmas (WAL, the
/// given `synchronous`, foreign keys on).
///
/// Each transaction is what one grant needs at minimum: `BEGIN IMMEDIATE`; insert a
/// ledger row; upsert a balance; insert an outbox (pending finish) row; `COMMIT`. The
/// tables mirror the shape of the ledger's `ledger_transactions`, `balances` and
/// `pending_finishes`, without the ledger's other bookkeeping.
public enum RawSQLiteBaseline {
    /// A SQLite call failed.
    public struct Failure: Error, CustomStringConvertible {
        /// SQLite's result code.
        public var code: Int32
        /// What failed, with SQLite's message.
        public var description: String
    }

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
        CREATE TABLE IF NOT EXISTS balances (
            player_id TEXT NOT NULL, currency_id TEXT NOT NULL, amount INTEGER NOT NULL,
            PRIMARY KEY (player_id, currency_id)
        ) WITHOUT ROWID;
        CREATE TABLE IF NOT EXISTS pending_finishes (
            store TEXT NOT NULL, transaction_id TEXT NOT NULL, player_id TEXT NOT NULL,
            enqueued_at_ms INTEGER NOT NULL,
            PRIMARY KEY (store, transaction_id),
            FOREIGN KEY (store, transaction_id) REFERENCES ledger_transactions (store, transaction_id)
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
    private static let insertOutboxSQL = """
        INSERT INTO pending_finishes (store, transaction_id, player_id, enqueued_at_ms) VALUES ('test', ?1, ?2, ?3)
        """

    /// Runs `count` grant-shaped transactions on a new database at `path` (which must not
    /// exist; it and its WAL files are left for the caller to remove) and returns
    /// transactions per second.
    public static func run(path: String, synchronous: SQLiteLedgerStore.Synchronous, count: Int) throws -> Double {
        precondition(count >= 1, "count must be at least 1")
        let db = try RawSQLite.open(path: path)
        defer { sqlite3_close_v2(db) }
        try RawSQLite.execute(db, "PRAGMA journal_mode = WAL")
        try RawSQLite.execute(db, "PRAGMA synchronous = \(synchronous.rawValue)")
        try RawSQLite.execute(db, "PRAGMA foreign_keys = ON")
        try RawSQLite.execute(db, schemaSQL)

        let insertLedger = try RawSQLite.prepare(db, insertLedgerSQL)
        defer { sqlite3_finalize(insertLedger) }
        let upsertBalance = try RawSQLite.prepare(db, upsertBalanceSQL)
        defer { sqlite3_finalize(upsertBalance) }
        let insertOutbox = try RawSQLite.prepare(db, insertOutboxSQL)
        defer { sqlite3_finalize(insertOutbox) }
        let begin = try RawSQLite.prepare(db, "BEGIN IMMEDIATE")
        defer { sqlite3_finalize(begin) }
        let commit = try RawSQLite.prepare(db, "COMMIT")
        defer { sqlite3_finalize(commit) }

        let start = ContinuousClock.now
        for index in 0..<count {
            let transactionID = "raw-\(index)"
            let playerID = "player-\(index % playerCountMax)"
            let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)
            try RawSQLite.step(db, begin)
            do {
                RawSQLite.bind(insertLedger, [transactionID, playerID])
                sqlite3_bind_int64(insertLedger, 3, nowMilliseconds)
                try RawSQLite.step(db, insertLedger)
                RawSQLite.bind(upsertBalance, [playerID])
                try RawSQLite.step(db, upsertBalance)
                RawSQLite.bind(insertOutbox, [transactionID, playerID])
                sqlite3_bind_int64(insertOutbox, 3, nowMilliseconds)
                try RawSQLite.step(db, insertOutbox)
                try RawSQLite.step(db, commit)
            } catch {
                _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
        return Double(count) / seconds(ContinuousClock.now - start)
    }

    /// A duration in seconds.
    static func seconds(_ duration: Duration) -> Double {
        let parts = duration.components
        return max(Double(parts.seconds) + Double(parts.attoseconds) / 1e18, 1e-9)
    }
}
