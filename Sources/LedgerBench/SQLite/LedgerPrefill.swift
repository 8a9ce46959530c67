import CSQLite
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Bulk-loads finished purchases into a ledger that `SQLiteLedgerStore` created, for the
/// bench's R6 (fulfillment on a large ledger). The schema and the statements stay the
/// library's (`Storage/Tables/` in the core); only the rows are written here, on one connection without the
/// ledger around it, because fulfilling millions of purchases through the ledger would
/// take hours.
///
/// Each purchase writes what a granted and finished fulfillment leaves behind: its
/// `ledger_transactions` row (grants JSON as the library encodes it, `finished_at_ms` set),
/// the `purchaseGranted` event, its share of the `balances` rows and, for a limited product,
/// of the `purchase_counts` rows of the limit's period. Transaction IDs are hashed, so the primary
/// key and the event index by transaction take random inserts as they do in production.
public enum LedgerPrefill {
    /// What to load.
    public struct Plan: Sendable {
        /// Purchases to write.
        public var transactionCount: Int
        /// Distinct players the purchases are spread over.
        public var playerCount: Int
        /// Purchases per write transaction.
        public var batchRowCount = LedgerPrefill.batchRowCountDefault
        /// The store every purchase is from.
        public var store: PlatformStore
        /// The catalog product every purchase maps to.
        public var productID: String
        /// The store's product ID of that product.
        public var storeProductID: String
        /// The product's kind.
        public var productKind: ProductKind = .consumable
        /// The product's purchase limit: only a limited product's purchases are counted.
        public var limit: PurchaseLimit?
        /// The store environment of every purchase.
        public var environment: StoreEnvironment
        /// The catalog version hash the ledger stamps on records.
        public var catalogVersion: String
        /// What one purchase grants; currency lines only (they become `balances` rows).
        public var grants: [GrantLine]
        /// When the newest purchase was made; purchases spread evenly over `historySeconds` before it.
        public var endDate = Date()

        /// A plan; the batch size, kind and end date take their defaults.
        public init(
            transactionCount: Int, playerCount: Int, store: PlatformStore, productID: String, storeProductID: String,
            environment: StoreEnvironment, catalogVersion: String, grants: [GrantLine]
        ) {
            self.transactionCount = transactionCount
            self.playerCount = playerCount
            self.store = store
            self.productID = productID
            self.storeProductID = storeProductID
            self.environment = environment
            self.catalogVersion = catalogVersion
            self.grants = grants
        }
    }

    /// What the load wrote and how long it took.
    public struct Summary: Sendable {
        /// `ledger_transactions` rows written.
        public var transactionCount: Int
        /// `events` rows written.
        public var eventCount: Int
        /// `purchase_counts` rows written.
        public var purchaseCountRowCount: Int
        /// `balances` rows written.
        public var balanceRowCount: Int
        /// Wall time of the load, including the final checkpoint and sync.
        public var seconds: Double
        /// The database file's size after the final checkpoint (the WAL is then empty).
        public var fileBytes: Int64
    }

    /// Purchases per write transaction unless the plan says otherwise: large enough that
    /// commits are rare, small enough that the WAL stays well under a gigabyte.
    public static let batchRowCountDefault = 50_000
    /// Most purchases one load writes.
    public static let transactionCountMax = 100_000_000
    /// Most players a plan may spread purchases over.
    public static let playerCountMax = 100_000_000
    /// Database bytes one purchase takes with its events and index entries (about 840 measured
    /// on loads of 1, 3 and 10 million purchases, rounded up); callers size free-space checks with it.
    public static let fileBytesPerTransactionEstimate: Int64 = 900
    /// How far back the oldest purchase lies before `Plan.endDate`.
    static let historySeconds: Double = 2 * 365 * 86_400
    /// Delay from purchase to fulfillment, and from fulfillment to the finish mark.
    static let fulfillDelayMilliseconds: Int64 = 2_000
    static let finishDelayMilliseconds: Int64 = 150
    /// SQLite page cache of the loading connection, in KiB: the indexes take random inserts,
    /// and a cache larger than one batch's dirty pages keeps SQLite from spilling them early.
    static let cacheKibibytes = 2_097_152

    /// Loads `plan` into the ledger at `path`, which `SQLiteLedgerStore` created and nothing
    /// has open. While loading, the connection runs with `journal_mode=OFF` and
    /// `synchronous=OFF`: every dirty page is written once, in place, instead of to the WAL
    /// and again by a checkpoint, and nothing waits for the disk. A crash mid-load leaves a
    /// broken file, which is acceptable for a bench's scratch file. Then WAL mode and
    /// `synchronous=FULL` are restored, the (empty) WAL is checkpointed and the file is
    /// fsynced, so no write-back of the load runs while anything is timed on the file.
    /// `progress` receives the purchases written so far after each batch.
    public static func run(
        path: String, plan: Plan, progress: (Int) -> Void = { _ in }
    ) throws(SQLiteError) -> Summary {
        try check(plan)
        let start = ContinuousClock.now
        var summary: Summary
        do {
            let connection = try SQLiteConnection(path: path, mode: .readWrite)
            try checkLedger(connection, path: path)
            try connection.execute(
                "PRAGMA synchronous = OFF; PRAGMA cache_size = -\(cacheKibibytes); PRAGMA temp_store = MEMORY")
            try setJournalMode(connection, "off", path: path)
            let writer = try LedgerPrefillWriter(connection: connection, plan: plan)
            var written = 0
            while written < plan.transactionCount {
                let batchEnd = min(written + plan.batchRowCount, plan.transactionCount)
                try connection.execute("BEGIN IMMEDIATE")
                for index in written..<batchEnd { try writer.insertPurchase(index: index) }
                if batchEnd == plan.transactionCount { try writer.insertTotals() }
                try connection.execute("COMMIT")
                written = batchEnd
                progress(written)
            }
            summary = writer.summary
            try connection.execute("PRAGMA synchronous = FULL")
            try setJournalMode(connection, "wal", path: path)
            let busy = try connection.text("PRAGMA wal_checkpoint(TRUNCATE)")
            guard busy == "0" else {
                throw SQLiteError(extendedResultCode: SQLITE_BUSY, message: "\(path): the final checkpoint could not complete")
            }
        }
        try syncFile(path)
        summary.seconds = BenchWorkloads.seconds(ContinuousClock.now - start)
        let attributes = try? FileManager.default.attributesOfItem(atPath: path)
        summary.fileBytes = (attributes?[.size] as? NSNumber)?.int64Value ?? 0
        return summary
    }

    private static func setJournalMode(_ connection: SQLiteConnection, _ mode: String, path: String) throws(SQLiteError) {
        let applied = try connection.text("PRAGMA journal_mode = \(mode)")
        guard applied?.lowercased() == mode else {
            throw SQLiteError(
                extendedResultCode: SQLITE_MISUSE, message: "\(path): journal_mode \(mode) was refused (\(applied ?? "no answer"))")
        }
    }

    /// fsyncs the database file: with the journal and syncs off, nothing else has.
    private static func syncFile(_ path: String) throws(SQLiteError) {
        let descriptor = open(path, O_RDWR)
        guard descriptor >= 0 else { throw SQLiteError(extendedResultCode: SQLITE_CANTOPEN, message: "cannot open \(path) to sync it") }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else {
            throw SQLiteError(extendedResultCode: SQLITE_IOERR, message: "fsync \(path) failed: errno \(errno)")
        }
    }

    private static func check(_ plan: Plan) throws(SQLiteError) {
        guard (1...transactionCountMax).contains(plan.transactionCount) else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "transactionCount must be 1 to \(transactionCountMax)")
        }
        guard (1...playerCountMax).contains(plan.playerCount), plan.batchRowCount >= 1 else {
            throw SQLiteError(
                extendedResultCode: SQLITE_MISUSE, message: "playerCount must be 1 to \(playerCountMax), batchRowCount at least 1")
        }
        guard plan.grants.allSatisfy({ $0.kind == .currency }) else {
            throw SQLiteError(extendedResultCode: SQLITE_MISUSE, message: "the pre-fill writes currency grants only")
        }
    }

    /// Refuses a file the library did not create: it must carry the ledger's application ID,
    /// its schema and WAL mode.
    private static func checkLedger(_ connection: SQLiteConnection, path: String) throws(SQLiteError) {
        let applicationID = try connection.text("PRAGMA application_id")
        let version = try connection.text("PRAGMA user_version")
        let mode = try connection.text("PRAGMA journal_mode")
        guard applicationID == String(LedgerSchema.applicationID), version == String(LedgerSchema.versionSupported),
            mode?.lowercased() == "wal"
        else {
            throw SQLiteError(
                extendedResultCode: SQLITE_MISUSE,
                message: "\(path) is not a current ledger in WAL mode; create it with SQLiteLedgerStore first")
        }
    }
}
