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
        var handle: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let openCode = sqlite3_open_v2(path, &handle, flags, nil)
        guard openCode == SQLITE_OK, let db = handle else {
            sqlite3_close_v2(handle)
            throw Failure(code: openCode, description: "cannot open \(path): SQLite code \(openCode)")
        }
        defer { sqlite3_close_v2(db) }
        try execute(db, "PRAGMA journal_mode = WAL")
        try execute(db, "PRAGMA synchronous = \(synchronous.rawValue)")
        try execute(db, "PRAGMA foreign_keys = ON")
        try execute(db, schemaSQL)

        let insertLedger = try prepare(db, insertLedgerSQL)
        defer { sqlite3_finalize(insertLedger) }
        let upsertBalance = try prepare(db, upsertBalanceSQL)
        defer { sqlite3_finalize(upsertBalance) }
        let insertOutbox = try prepare(db, insertOutboxSQL)
        defer { sqlite3_finalize(insertOutbox) }
        let begin = try prepare(db, "BEGIN IMMEDIATE")
        defer { sqlite3_finalize(begin) }
        let commit = try prepare(db, "COMMIT")
        defer { sqlite3_finalize(commit) }

        let start = ContinuousClock.now
        for index in 0..<count {
            let transactionID = "raw-\(index)"
            let playerID = "player-\(index % playerCountMax)"
            let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)
            try step(db, begin)
            do {
                bind(insertLedger, [transactionID, playerID])
                sqlite3_bind_int64(insertLedger, 3, nowMilliseconds)
                try step(db, insertLedger)
                bind(upsertBalance, [playerID])
                try step(db, upsertBalance)
                bind(insertOutbox, [transactionID, playerID])
                sqlite3_bind_int64(insertOutbox, 3, nowMilliseconds)
                try step(db, insertOutbox)
                try step(db, commit)
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

    private static func execute(_ db: OpaquePointer, _ sql: String) throws {
        let code = sqlite3_exec(db, sql, nil, nil, nil)
        guard code == SQLITE_OK else { throw failure(db, code, sql) }
    }

    private static func prepare(_ db: OpaquePointer, _ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(db, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else { throw failure(db, code, sql) }
        return statement
    }

    /// Binds text parameters 1...n; SQLite copies them (SQLITE_TRANSIENT).
    private static func bind(_ statement: OpaquePointer, _ texts: [String]) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (offset, text) in texts.enumerated() {
            sqlite3_bind_text(statement, Int32(offset + 1), text, -1, transient)
        }
    }

    /// Steps a statement that returns no rows, then resets it for reuse.
    private static func step(_ db: OpaquePointer, _ statement: OpaquePointer) throws {
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        guard code == SQLITE_DONE else {
            throw failure(db, code, String(cString: sqlite3_sql(statement)))
        }
    }

    private static func failure(_ db: OpaquePointer, _ code: Int32, _ sql: String) -> Failure {
        Failure(code: code, description: "SQLite \(code): \(String(cString: sqlite3_errmsg(db))) in \(sql)")
    }
}
