import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Writes the rows of one `LedgerPrefill` load with the data layer's own statements (`Storage/Tables/` in the core),
/// prepared once. What every purchase shares (store, product, grants) is made into values once.
final class LedgerPrefillWriter {
    private let plan: LedgerPrefill.Plan
    private let insertTransaction: SQLiteStatement
    private let insertEvent: SQLiteStatement
    private let incrementPurchaseCount: SQLiteStatement
    private let upsertBalance: SQLiteStatement
    private let store: SQLiteValue
    private let product: SQLiteValue
    /// The ledger row's columns every purchase shares, after its player and before its dates.
    private let recordProduct: [SQLiteValue]
    private let recordCatalog: [SQLiteValue]
    /// The detail the fulfillment pipeline writes for a quantity-1 purchase.
    private let grantedDetail: SQLiteValue
    private let startMilliseconds: Int64
    private let stepMilliseconds: Double
    /// Purchases per player so far, for the lifetime counts and balances written at the end.
    private var purchasesByPlayer: [Int32]
    /// Purchases per player in the current ISO week; purchase dates only grow, so a week's
    /// counts are complete, and written, when the first purchase of the next week arrives.
    private var weekPurchasesByPlayer: [Int32: Int32] = [:]
    private var weekKey = ""
    private var weekEndMilliseconds = Int64.min
    /// What has been written so far.
    private(set) var summary = LedgerPrefill.Summary(
        transactionCount: 0, eventCount: 0, purchaseCountRowCount: 0, balanceRowCount: 0, seconds: 0, fileBytes: 0)

    init(connection: SQLiteConnection, plan: LedgerPrefill.Plan) throws(SQLiteError) {
        self.plan = plan
        let endMilliseconds = plan.endDate.ledgerMilliseconds
        startMilliseconds = endMilliseconds - Int64(LedgerPrefill.historySeconds * 1000)
        stepMilliseconds = LedgerPrefill.historySeconds * 1000 / Double(plan.transactionCount)
        purchasesByPlayer = [Int32](repeating: 0, count: plan.playerCount)
        insertTransaction = try connection.statement(TransactionsTable.insertSQL)
        insertEvent = try connection.statement(EventsTable.insertSQL)
        incrementPurchaseCount = try connection.statement(PurchaseCountsTable.incrementSQL)
        upsertBalance = try connection.statement(BalancesTable.setAmountSQL)
        store = .text(plan.store.rawValue)
        product = .text(plan.productID)
        recordProduct = [
            product, .text(plan.storeProductID), .text(plan.productKind.rawValue), .integer(1), .text(plan.environment.rawValue),
        ]
        recordCatalog = [.text(plan.catalogVersion), .text(StoredForm.grantsText(plan.grants))]
        let summary = plan.grants.isEmpty ? "nothing new (already owned)" : plan.grants.map(\.description).joined(separator: ", ")
        grantedDetail = .text("\(plan.productID) x1: \(summary)")
    }

    /// Writes purchase `index`: its ledger row and its event, and counts it.
    func insertPurchase(index: Int) throws(SQLiteError) {
        let purchaseMilliseconds = startMilliseconds + Int64(Double(index) * stepMilliseconds)
        if purchaseMilliseconds >= weekEndMilliseconds { try startWeek(at: purchaseMilliseconds) }
        let player = LedgerPrefill.playerNumber(transactionIndex: index, playerCount: plan.playerCount)
        let playerID = SQLiteValue.text(LedgerPrefill.playerID(number: player))
        let transactionID = SQLiteValue.text(LedgerPrefill.transactionID(index: index))
        let fulfilledMilliseconds = purchaseMilliseconds + LedgerPrefill.fulfillDelayMilliseconds
        let finishedMilliseconds = fulfilledMilliseconds + LedgerPrefill.finishDelayMilliseconds
        // The finish is stamped on the row; it writes no event.

        try insertTransaction.run(
            [store, transactionID, playerID] + recordProduct
                + [.integer(purchaseMilliseconds), .integer(fulfilledMilliseconds)] + recordCatalog
                // No `store_transaction_id` (the library leaves it NULL when the delivery is the
                // key); `entitlements_listed` set, as on every row the library writes now; no order ID.
                + [.integer(finishedMilliseconds), .null, .integer(1), .null])
        try insertEvent.run([
            .text(LedgerEventKind.purchaseGranted.rawValue), playerID, store, transactionID, .integer(fulfilledMilliseconds),
            grantedDetail,
        ])
        purchasesByPlayer[player] += 1
        if plan.limit?.period == .week { weekPurchasesByPlayer[Int32(player), default: 0] += 1 }
        summary.transactionCount += 1
        summary.eventCount += 1
    }

    /// Writes the last week's counts, then every player's lifetime count and balances.
    /// Players go in ID order, so these inserts walk each table's key order once.
    func insertTotals() throws(SQLiteError) {
        try writeWeek()
        for (player, purchases) in purchasesByPlayer.enumerated() where purchases > 0 {
            let playerID = SQLiteValue.text(LedgerPrefill.playerID(number: player))
            if plan.limit?.period == .lifetime {
                try incrementPurchaseCount.run([playerID, product, .text(PurchasePeriod.lifetime), .integer(Int64(purchases))])
                summary.purchaseCountRowCount += 1
            }
            for line in plan.grants {
                try upsertBalance.run([playerID, .text(line.id), .integer(line.quantity * Int64(purchases))])
                summary.balanceRowCount += 1
            }
        }
    }

    /// Writes the finished week's counts and starts the week holding `milliseconds`.
    private func startWeek(at milliseconds: Int64) throws(SQLiteError) {
        try writeWeek()
        let date = Date(ledgerMilliseconds: milliseconds)
        weekKey = PurchasePeriod.weekKey(for: date)
        weekEndMilliseconds = PurchasePeriod.nextWeekStart(after: date).ledgerMilliseconds
    }

    private func writeWeek() throws(SQLiteError) {
        guard !weekPurchasesByPlayer.isEmpty else { return }
        let period = SQLiteValue.text(weekKey)
        for (player, purchases) in weekPurchasesByPlayer.sorted(by: { $0.key < $1.key }) {
            try incrementPurchaseCount.run([
                .text(LedgerPrefill.playerID(number: Int(player))), product, period, .integer(Int64(purchases)),
            ])
            summary.purchaseCountRowCount += 1
        }
        weekPurchasesByPlayer.removeAll(keepingCapacity: true)
    }
}
