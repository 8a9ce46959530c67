import CSQLite
import Foundation
import FulfillmentLedger

/// Benchmark R1L: every statement one fulfillment of the bench's product runs, in the
/// order the library runs them, on the ledger's own schema, straight through the SQLite C
/// API with prepared statements. Where R1 is the least a grant could write, R1L is the
/// same work the library does, so R2/R1L is what the library itself costs on top of its
/// SQL, and R1L/R1 is what its extra bookkeeping (purchase counts, the event log, the
/// finish mark) costs.
///
/// The statements mirror those in `Tables/` (checked by a test that runs both on one
/// file and compares the rows). Per fulfillment:
/// 1. read: `BEGIN`; look the transaction up; `ROLLBACK`;
/// 2. grant, synced: `BEGIN IMMEDIATE`; look it up again; read and upsert the balance;
///    insert the ledger row; bump the lifetime and weekly purchase counts; insert the
///    outbox row; append the event; read waiting refund events; `COMMIT`;
/// 3. finish mark, not synced (`synchronous = NORMAL` for that commit): `BEGIN IMMEDIATE`;
///    delete the outbox row; stamp the ledger row; append the event; `COMMIT`.
public enum RawSQLiteLedgerWork {
    /// Distinct players the fulfillments are spread over, as in the bench's R2.
    public static let playerCountMax = 50

    private static let selectTransactionSQL =
        "SELECT store, transaction_id, player_id, product_id, store_product_id, product_kind, quantity, environment, "
        + "purchase_date_ms, fulfilled_at_ms, catalog_version, grants, finished_at_ms "
        + "FROM ledger_transactions WHERE store = ? AND transaction_id = ?"
    private static let selectBalanceSQL = "SELECT amount FROM balances WHERE player_id = ? AND currency_id = ?"
    private static let upsertBalanceSQL = """
        INSERT INTO balances (player_id, currency_id, amount) VALUES (?, ?, ?)
        ON CONFLICT (player_id, currency_id) DO UPDATE SET amount = excluded.amount
        """
    private static let insertTransactionSQL = """
        INSERT INTO ledger_transactions (store, transaction_id, player_id, product_id, store_product_id, product_kind,
        quantity, environment, purchase_date_ms, fulfilled_at_ms, catalog_version, grants, finished_at_ms)
        VALUES ('test', ?1, ?2, 'gems_small', 'test.gems_small', 'consumable', 1, 'sandbox', ?3, ?3, 'bench', ?4, NULL)
        """
    private static let upsertPurchaseCountSQL = """
        INSERT INTO purchase_counts (player_id, product_id, period, count) VALUES (?, 'gems_small', ?, 1)
        ON CONFLICT (player_id, product_id, period) DO UPDATE SET count = count + excluded.count
        """
    private static let insertOutboxSQL = """
        INSERT INTO pending_finishes (store, transaction_id, player_id, enqueued_at_ms, attempt_count, last_error)
        VALUES ('test', ?, ?, ?, 0, NULL)
        """
    private static let insertEventSQL =
        "INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES (?, ?, 'test', ?, ?, ?)"
    private static let selectRevocationsSQL = """
        SELECT event_id FROM revocation_events WHERE store = 'test' AND transaction_id = ?
        ORDER BY event_date_ms, received_at_ms, event_id LIMIT 1000
        """
    private static let deleteOutboxSQL = "DELETE FROM pending_finishes WHERE store = 'test' AND transaction_id = ?"
    private static let stampFinishedSQL = """
        UPDATE ledger_transactions SET finished_at_ms = ?
        WHERE store = 'test' AND transaction_id = ? AND finished_at_ms IS NULL
        """

    /// The statements of one run, prepared once.
    private struct Statements {
        let selectTransaction, selectBalance, upsertBalance, insertTransaction, upsertPurchaseCount: OpaquePointer
        let insertOutbox, insertEvent, selectRevocations, deleteOutbox, stampFinished: OpaquePointer
        let begin, beginImmediate, commit, rollback, synchronousFull, synchronousNormal: OpaquePointer

        var all: [OpaquePointer] {
            [
                selectTransaction, selectBalance, upsertBalance, insertTransaction, upsertPurchaseCount, insertOutbox,
                insertEvent, selectRevocations, deleteOutbox, stampFinished, begin, beginImmediate, commit, rollback,
                synchronousFull, synchronousNormal,
            ]
        }
    }

    /// Runs `count` fulfillments' worth of statements on a new ledger at `path` (which must
    /// not exist; the files are left for the caller to remove) and returns fulfillments
    /// per second. `synchronous` is the level of the grant commits, as the store's option.
    public static func run(path: String, synchronous: SQLiteLedgerStore.Synchronous, count: Int) throws -> Double {
        precondition(count >= 1, "count must be at least 1")
        // The library creates the file, so the schema, indexes and triggers are its own.
        do { _ = try SQLiteLedgerStore(path: path) }
        let db = try RawSQLite.open(path: path)
        defer { sqlite3_close_v2(db) }
        try RawSQLite.execute(db, "PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        let statements = try prepareAll(db, durable: synchronous)
        defer { statements.all.forEach { sqlite3_finalize($0) } }
        let week = PurchasePeriod.weekKey(for: Date())
        let start = ContinuousClock.now
        for index in 0..<count {
            try fulfill(index: index, week: week, db: db, statements)
        }
        return Double(count) / RawSQLiteBaseline.seconds(ContinuousClock.now - start)
    }

    private static func prepareAll(_ db: OpaquePointer, durable: SQLiteLedgerStore.Synchronous) throws -> Statements {
        func prepare(_ sql: String) throws -> OpaquePointer { try RawSQLite.prepare(db, sql) }
        return Statements(
            selectTransaction: try prepare(selectTransactionSQL), selectBalance: try prepare(selectBalanceSQL),
            upsertBalance: try prepare(upsertBalanceSQL), insertTransaction: try prepare(insertTransactionSQL),
            upsertPurchaseCount: try prepare(upsertPurchaseCountSQL), insertOutbox: try prepare(insertOutboxSQL),
            insertEvent: try prepare(insertEventSQL), selectRevocations: try prepare(selectRevocationsSQL),
            deleteOutbox: try prepare(deleteOutboxSQL), stampFinished: try prepare(stampFinishedSQL),
            begin: try prepare("BEGIN DEFERRED"), beginImmediate: try prepare("BEGIN IMMEDIATE"),
            commit: try prepare("COMMIT"), rollback: try prepare("ROLLBACK"),
            synchronousFull: try prepare("PRAGMA synchronous = \(durable.rawValue)"),
            synchronousNormal: try prepare("PRAGMA synchronous = NORMAL"))
    }

    /// One fulfillment: the read, the synced grant, the unsynced finish mark.
    private static func fulfill(index: Int, week: String, db: OpaquePointer, _ s: Statements) throws {
        let transactionID = "raw-\(index)"
        let playerID = "player-\(index % playerCountMax)"
        let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)

        try RawSQLite.step(db, s.begin)
        RawSQLite.bind(s.selectTransaction, ["test", transactionID])
        try RawSQLite.rows(db, s.selectTransaction)
        try RawSQLite.step(db, s.rollback)

        try RawSQLite.step(db, s.synchronousFull)
        try RawSQLite.step(db, s.beginImmediate)
        do {
            RawSQLite.bind(s.selectTransaction, ["test", transactionID])
            try RawSQLite.rows(db, s.selectTransaction)
            RawSQLite.bind(s.selectBalance, [playerID, "gems"])
            let balance = try RawSQLite.firstInteger(db, s.selectBalance) ?? 0
            RawSQLite.bind(s.upsertBalance, [playerID, "gems"])
            sqlite3_bind_int64(s.upsertBalance, 3, balance + 100)
            try RawSQLite.step(db, s.upsertBalance)
            RawSQLite.bind(s.insertTransaction, [transactionID, playerID])
            sqlite3_bind_int64(s.insertTransaction, 3, nowMilliseconds)
            RawSQLite.bind(s.insertTransaction, [#"[{"kind":"currency","id":"gems","quantity":100}]"#], from: 4)
            try RawSQLite.step(db, s.insertTransaction)
            for period in [PurchasePeriod.lifetime, week] {
                RawSQLite.bind(s.upsertPurchaseCount, [playerID, period])
                try RawSQLite.step(db, s.upsertPurchaseCount)
            }
            RawSQLite.bind(s.insertOutbox, [transactionID, playerID])
            sqlite3_bind_int64(s.insertOutbox, 3, nowMilliseconds)
            try RawSQLite.step(db, s.insertOutbox)
            try appendEvent(db, s, kind: "purchaseGranted", playerID: playerID, transactionID: transactionID,
                at: nowMilliseconds, detail: "gems_small x1: currency:gems x100")
            RawSQLite.bind(s.selectRevocations, [transactionID])
            try RawSQLite.rows(db, s.selectRevocations)
            try RawSQLite.step(db, s.commit)

            try RawSQLite.step(db, s.synchronousNormal)
            try RawSQLite.step(db, s.beginImmediate)
            RawSQLite.bind(s.deleteOutbox, [transactionID])
            try RawSQLite.step(db, s.deleteOutbox)
            sqlite3_bind_int64(s.stampFinished, 1, nowMilliseconds)
            RawSQLite.bind(s.stampFinished, [transactionID], from: 2)
            try RawSQLite.step(db, s.stampFinished)
            try appendEvent(db, s, kind: "finishSucceeded", playerID: playerID, transactionID: transactionID,
                at: nowMilliseconds, detail: "platform finish done")
            try RawSQLite.step(db, s.commit)
        } catch {
            _ = sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
            throw error
        }
    }

    private static func appendEvent(
        _ db: OpaquePointer, _ s: Statements, kind: String, playerID: String, transactionID: String, at: Int64,
        detail: String
    ) throws {
        RawSQLite.bind(s.insertEvent, [kind, playerID, transactionID])
        sqlite3_bind_int64(s.insertEvent, 4, at)
        RawSQLite.bind(s.insertEvent, [detail], from: 5)
        try RawSQLite.step(db, s.insertEvent)
    }
}
