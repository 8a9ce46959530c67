import CSQLite
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

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

    /// The statements of one run, prepared once and finalized when released.
    private struct Statements {
        typealias Statement = BenchSQLiteConnection.Statement
        let selectTransaction, selectBalance, upsertBalance, insertTransaction, upsertPurchaseCount: Statement
        let insertOutbox, insertEvent, selectRevocations, deleteOutbox, stampFinished: Statement
        let begin, beginImmediate, commit, rollback, synchronousDurable, synchronousNormal: Statement

        init(_ db: BenchSQLiteConnection, durable: SQLiteLedgerStore.Synchronous) throws(BenchSQLiteFailure) {
            selectTransaction = try db.prepare(RawSQLiteLedgerWork.selectTransactionSQL)
            selectBalance = try db.prepare(RawSQLiteLedgerWork.selectBalanceSQL)
            upsertBalance = try db.prepare(RawSQLiteLedgerWork.upsertBalanceSQL)
            insertTransaction = try db.prepare(RawSQLiteLedgerWork.insertTransactionSQL)
            upsertPurchaseCount = try db.prepare(RawSQLiteLedgerWork.upsertPurchaseCountSQL)
            insertOutbox = try db.prepare(RawSQLiteLedgerWork.insertOutboxSQL)
            insertEvent = try db.prepare(RawSQLiteLedgerWork.insertEventSQL)
            selectRevocations = try db.prepare(RawSQLiteLedgerWork.selectRevocationsSQL)
            deleteOutbox = try db.prepare(RawSQLiteLedgerWork.deleteOutboxSQL)
            stampFinished = try db.prepare(RawSQLiteLedgerWork.stampFinishedSQL)
            begin = try db.prepare("BEGIN DEFERRED")
            beginImmediate = try db.prepare("BEGIN IMMEDIATE")
            commit = try db.prepare("COMMIT")
            rollback = try db.prepare("ROLLBACK")
            synchronousDurable = try db.prepare("PRAGMA synchronous = \(durable.rawValue)")
            synchronousNormal = try db.prepare("PRAGMA synchronous = NORMAL")
        }
    }

    /// Runs `count` fulfillments' worth of statements on a new ledger at `path` (which must
    /// not exist; the files are left for the caller to remove) and returns fulfillments
    /// per second. `synchronous` is the level of the grant commits, as the store's option.
    public static func run(path: String, synchronous: SQLiteLedgerStore.Synchronous, count: Int) throws -> Double {
        precondition(count >= 1, "count must be at least 1")
        // The library creates the file, so the schema, indexes and triggers are its own.
        do { _ = try SQLiteLedgerStore(path: path) }
        let db = try BenchSQLiteConnection(path: path)
        try db.execute("PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        let statements = try Statements(db, durable: synchronous)
        let week = PurchasePeriod.weekKey(for: Date())
        let start = ContinuousClock.now
        for index in 0..<count {
            do {
                try fulfill(index: index, week: week, statements)
            } catch {
                try? db.execute("ROLLBACK")
                throw error
            }
        }
        return Double(count) / (ContinuousClock.now - start).secondsNeverZero
    }

    /// One fulfillment: the read, the synced grant, the unsynced finish mark.
    private static func fulfill(index: Int, week: String, _ s: Statements) throws(BenchSQLiteFailure) {
        let transactionID = "raw-\(index)"
        let playerID = "player-\(index % playerCountMax)"
        let nowMilliseconds = Int64(Date().timeIntervalSince1970 * 1000)

        try s.begin.run()
        s.selectTransaction.bind(["test", transactionID])
        try s.selectTransaction.skipRows()
        try s.rollback.run()

        try s.synchronousDurable.run()
        try s.beginImmediate.run()
        s.selectTransaction.bind(["test", transactionID])
        try s.selectTransaction.skipRows()
        s.selectBalance.bind([playerID, "gems"])
        let balance = try s.selectBalance.firstInteger() ?? 0
        s.upsertBalance.bind([playerID, "gems"])
        s.upsertBalance.bind(3, balance + 100)
        try s.upsertBalance.run()
        s.insertTransaction.bind([transactionID, playerID])
        s.insertTransaction.bind(3, nowMilliseconds)
        s.insertTransaction.bind(4, TransactionsTable.encodeGrants([GrantLine(kind: .currency, id: "gems", quantity: 100)]))
        try s.insertTransaction.run()
        for period in [PurchasePeriod.lifetime, week] {
            s.upsertPurchaseCount.bind([playerID, period])
            try s.upsertPurchaseCount.run()
        }
        s.insertOutbox.bind([transactionID, playerID])
        s.insertOutbox.bind(3, nowMilliseconds)
        try s.insertOutbox.run()
        try appendEvent(
            s, kind: "purchaseGranted", playerID: playerID, transactionID: transactionID, at: nowMilliseconds,
            detail: "gems_small x1: currency:gems x100")
        s.selectRevocations.bind([transactionID])
        try s.selectRevocations.skipRows()
        try s.commit.run()

        try s.synchronousNormal.run()
        try s.beginImmediate.run()
        s.deleteOutbox.bind([transactionID])
        try s.deleteOutbox.run()
        s.stampFinished.bind(1, nowMilliseconds)
        s.stampFinished.bind([transactionID], from: 2)
        try s.stampFinished.run()
        try appendEvent(
            s, kind: "finishSucceeded", playerID: playerID, transactionID: transactionID, at: nowMilliseconds,
            detail: "platform finish done")
        try s.commit.run()
    }

    private static func appendEvent(
        _ s: Statements, kind: String, playerID: String, transactionID: String, at: Int64, detail: String
    ) throws(BenchSQLiteFailure) {
        s.insertEvent.bind([kind, playerID, transactionID])
        s.insertEvent.bind(4, at)
        s.insertEvent.bind(5, detail)
        try s.insertEvent.run()
    }
}
