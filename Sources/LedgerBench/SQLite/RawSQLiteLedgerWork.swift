import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Benchmark R1L: every statement one fulfillment of the bench's product runs, in the
/// order the library runs them, on the ledger's own schema: the data layer's own SQL (`Storage/Tables/`)
/// on its own connection and prepared statements (with the transaction control prepared
/// too), without the ledger, its pipeline and group commit around them. Where R1 is the least a grant could write, R1L is the same
/// work the library does, so R2/R1L is what the library itself costs on top of its SQL,
/// and R1L/R1 is what its extra bookkeeping (purchase counts, the event log, the finish
/// mark) costs.
///
/// A test checks that it leaves exactly the rows the library leaves. Per fulfillment:
/// 1. read: `BEGIN`; look the purchase up by key and by delivery ID; `ROLLBACK`;
/// 2. grant, synced: `BEGIN IMMEDIATE`; stamp the previous fulfillment's ledger row
///    finished (its finish mark, carried into this transaction as the store carries it);
///    look the purchase up again; read and set the balance; insert the ledger row
///    (pending its finish); append the event; read waiting refund events; `COMMIT` (the
///    product has no limit, so no purchase count is written).
///
/// After the last, its finish mark commits alone, not synced (`synchronous = NORMAL`), as
/// the store commits a mark no later write carried.
public enum RawSQLiteLedgerWork {
    /// Distinct players the fulfillments are spread over, as in the bench's R2.
    public static let playerCountMax = 50

    /// The store's statements of one fulfillment, and the transaction control around them,
    /// prepared once.
    private struct Statements {
        let selectTransaction, selectDelivery, selectBalance, setBalance, insertTransaction: SQLiteStatement
        let insertEvent, selectRevocations, stampFinished: SQLiteStatement
        let begin, beginImmediate, commit, rollback, synchronousDurable, synchronousNormal: SQLiteStatement

        init(_ db: SQLiteConnection, durable: SQLiteLedgerStore.Synchronous) throws(SQLiteError) {
            selectTransaction = try db.statement(TransactionsTable.selectOneSQL)
            selectDelivery = try db.statement(TransactionsTable.selectByDeliverySQL)
            selectBalance = try db.statement(BalancesTable.selectAmountSQL)
            setBalance = try db.statement(BalancesTable.setAmountSQL)
            insertTransaction = try db.statement(TransactionsTable.insertSQL)
            insertEvent = try db.statement(EventsTable.insertSQL)
            selectRevocations = try db.statement(RevocationEventsTable.selectByPurchaseSQL)
            stampFinished = try db.statement(TransactionsTable.stampFinishedSQL)
            begin = try db.statement("BEGIN DEFERRED")
            beginImmediate = try db.statement("BEGIN IMMEDIATE")
            commit = try db.statement("COMMIT")
            rollback = try db.statement("ROLLBACK")
            synchronousDurable = try db.statement("PRAGMA synchronous = \(durable.rawValue)")
            synchronousNormal = try db.statement("PRAGMA synchronous = NORMAL")
        }
    }

    /// What every fulfillment of one run binds the same way: the values the library would
    /// bind for the bench's product.
    private struct Constants {
        let catalogVersion: String
        let grants = StoredForm.grantsText(BenchWorkloads.grants)
        let grantedDetail =
            "\(BenchWorkloads.productID) x1: " + BenchWorkloads.grants.map(\.description).joined(separator: ", ")
        let revocationCountMax = LedgerConfiguration.sandbox.revocationEventCountMax
    }

    /// Runs `count` fulfillments' worth of statements on a new ledger at `path` (which must
    /// not exist; the files are left for the caller to remove) and returns fulfillments
    /// per second. `synchronous` is the level of the grant commits, as the store's option.
    public static func run(path: String, synchronous: SQLiteLedgerStore.Synchronous, count: Int) async throws -> Double {
        precondition(count >= 1, "count must be at least 1")
        // The library creates the file, so the schema, indexes and triggers are its own.
        await (try await SQLiteLedgerStore.open(path: path)).close()
        let db = try SQLiteConnection(path: path, mode: .readWrite)
        try db.execute("PRAGMA foreign_keys = ON; PRAGMA temp_store = MEMORY")
        let statements = try Statements(db, durable: synchronous)
        let constants = Constants(catalogVersion: try BenchWorkloads.catalog().versionHash)
        let start = ContinuousClock.now
        var previous: SQLiteValue?
        for index in 0..<count {
            do {
                previous = try fulfill(index: index, finishing: previous, statements, constants)
            } catch {
                db.rollbackIfOpen()
                throw error
            }
        }
        do {
            try statements.synchronousNormal.run()
            try statements.beginImmediate.run()
            try statements.stampFinished.run([.integer(Date().ledgerMilliseconds), .text(PlatformStore.test.rawValue), previous ?? .null])
            try statements.commit.run()
        } catch {
            db.rollbackIfOpen()
            throw error
        }
        return Double(count) / BenchWorkloads.seconds(ContinuousClock.now - start)
    }

    /// One fulfillment: the read, then the synced grant carrying the finish mark of the
    /// fulfillment before (`finishing`). Returns the transaction ID whose mark the next carries.
    private static func fulfill(
        index: Int, finishing previous: SQLiteValue?, _ s: Statements, _ constants: Constants
    ) throws(SQLiteError) -> SQLiteValue {
        let store = SQLiteValue.text(PlatformStore.test.rawValue)
        let transaction = SQLiteValue.text("raw-\(index)")
        let player = SQLiteValue.text("player-\(index % playerCountMax)")
        let product = SQLiteValue.text(BenchWorkloads.productID)
        let now = SQLiteValue.integer(Date().ledgerMilliseconds)

        try s.begin.run()
        try lookUp(store, transaction, s)
        try s.rollback.run()

        try s.synchronousDurable.run()
        try s.beginImmediate.run()
        if let previous { try s.stampFinished.run([now, store, previous]) }
        try lookUp(store, transaction, s)
        for line in BenchWorkloads.grants {
            let balance = try s.selectBalance.queryOne([player, .text(line.id)]) { $0.int64(0) } ?? 0
            try s.setBalance.run([player, .text(line.id), .integer(balance + line.quantity)])
        }
        try s.insertTransaction.run([
            store, transaction, player, product, .text(BenchWorkloads.storeProductID), .text(ProductKind.consumable.rawValue),
            .integer(1), .text(StoreEnvironment.sandbox.rawValue), now, now, .text(constants.catalogVersion),
            .text(constants.grants), .null, .null, .integer(1), .null,
        ])
        try s.insertEvent.run([
            .text(LedgerEventKind.purchaseGranted.rawValue), player, store, transaction, now, .text(constants.grantedDetail),
        ])
        let limit = constants.revocationCountMax
        _ = try s.selectRevocations.query([store, transaction, .integer(Int64(limit))], rowCountMax: limit) { _ in () }
        try s.commit.run()
        return transaction
    }

    /// The library's look-up of a new consumable's purchase: by its key, then by the delivery's
    /// ID (`LedgerReader.fulfilledPurchase`); both miss.
    private static func lookUp(_ store: SQLiteValue, _ transaction: SQLiteValue, _ s: Statements) throws(SQLiteError) {
        _ = try s.selectTransaction.query([store, transaction], rowCountMax: 1) { _ in () }
        _ = try s.selectDelivery.query([store, transaction], rowCountMax: 1) { _ in () }
    }
}
