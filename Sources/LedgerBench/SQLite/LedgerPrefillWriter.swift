import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

/// Writes the rows of one `LedgerPrefill` load with prepared statements. What every
/// purchase shares (store, product, grants) is bound once; SQLite keeps bindings across
/// resets, so each purchase binds only its own values.
final class LedgerPrefillWriter {
    private let plan: LedgerPrefill.Plan
    private let insertTransaction: BenchSQLiteConnection.Statement
    private let insertGrantedEvent: BenchSQLiteConnection.Statement
    private let insertFinishedEvent: BenchSQLiteConnection.Statement
    private let insertPurchaseCount: BenchSQLiteConnection.Statement
    private let insertBalance: BenchSQLiteConnection.Statement
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

    init(connection: BenchSQLiteConnection, plan: LedgerPrefill.Plan) throws(BenchSQLiteFailure) {
        self.plan = plan
        let endMilliseconds = plan.endDate.ledgerMilliseconds
        startMilliseconds = endMilliseconds - Int64(LedgerPrefill.historySeconds * 1000)
        stepMilliseconds = LedgerPrefill.historySeconds * 1000 / Double(plan.transactionCount)
        purchasesByPlayer = [Int32](repeating: 0, count: plan.playerCount)
        insertTransaction = try connection.prepare(
            "INSERT INTO ledger_transactions (\(TransactionsTable.columns)) VALUES (\(Self.placeholders(15)))")
        let eventSQL =
            "INSERT INTO events (kind, player_id, store, transaction_id, at_ms, detail) VALUES (\(Self.placeholders(6)))"
        insertGrantedEvent = try connection.prepare(eventSQL)
        insertFinishedEvent = try connection.prepare(eventSQL)
        insertPurchaseCount = try connection.prepare(
            "INSERT INTO purchase_counts (player_id, product_id, period, count) VALUES (?1, ?2, ?3, ?4)")
        insertBalance = try connection.prepare("INSERT INTO balances (player_id, currency_id, amount) VALUES (?1, ?2, ?3)")
        try bindConstants()
    }

    /// `?1, ?2, … ?count`.
    private static func placeholders(_ count: Int) -> String {
        (1...count).map { "?\($0)" }.joined(separator: ", ")
    }

    private func bindConstants() throws(BenchSQLiteFailure) {
        let grantsJSON = TransactionsTable.encodeGrants(plan.grants)
        insertTransaction.bind(1, plan.store.rawValue)
        insertTransaction.bind(4, plan.productID)
        insertTransaction.bind(5, plan.storeProductID)
        insertTransaction.bind(6, plan.productKind.rawValue)
        insertTransaction.bind(7, Int64(1))
        insertTransaction.bind(8, plan.environment.rawValue)
        insertTransaction.bind(11, plan.catalogVersion)
        insertTransaction.bind(12, grantsJSON)
        insertTransaction.bind(15, Int64(1))
        // The details the fulfillment pipeline writes for a quantity-1 purchase and its finish.
        let summary = plan.grants.isEmpty ? "nothing new (already owned)" : plan.grants.map(\.description).joined(separator: ", ")
        insertGrantedEvent.bind(1, LedgerEventKind.purchaseGranted.rawValue)
        insertGrantedEvent.bind(3, plan.store.rawValue)
        insertGrantedEvent.bind(6, "\(plan.productID) x1: \(summary)")
        insertFinishedEvent.bind(1, LedgerEventKind.finishSucceeded.rawValue)
        insertFinishedEvent.bind(3, plan.store.rawValue)
        insertFinishedEvent.bind(6, "platform finish done")
        insertPurchaseCount.bind(2, plan.productID)
    }

    /// Writes purchase `index`: its ledger row and its two events, and counts it.
    func insertPurchase(index: Int) throws(BenchSQLiteFailure) {
        let purchaseMilliseconds = startMilliseconds + Int64(Double(index) * stepMilliseconds)
        if purchaseMilliseconds >= weekEndMilliseconds { try startWeek(at: purchaseMilliseconds) }
        let player = LedgerPrefill.playerNumber(transactionIndex: index, playerCount: plan.playerCount)
        let playerID = LedgerPrefill.playerID(number: player)
        let transactionID = LedgerPrefill.transactionID(index: index)
        let fulfilledMilliseconds = purchaseMilliseconds + LedgerPrefill.fulfillDelayMilliseconds
        let finishedMilliseconds = fulfilledMilliseconds + LedgerPrefill.finishDelayMilliseconds

        insertTransaction.bind(2, transactionID)
        insertTransaction.bind(3, playerID)
        insertTransaction.bind(9, purchaseMilliseconds)
        insertTransaction.bind(10, fulfilledMilliseconds)
        insertTransaction.bind(13, finishedMilliseconds)
        try insertTransaction.run()
        try insertEvent(insertGrantedEvent, playerID: playerID, transactionID: transactionID, at: fulfilledMilliseconds)
        try insertEvent(insertFinishedEvent, playerID: playerID, transactionID: transactionID, at: finishedMilliseconds)
        purchasesByPlayer[player] += 1
        weekPurchasesByPlayer[Int32(player), default: 0] += 1
        summary.transactionCount += 1
        summary.eventCount += 2
    }

    private func insertEvent(
        _ statement: BenchSQLiteConnection.Statement, playerID: String, transactionID: String, at milliseconds: Int64
    ) throws(BenchSQLiteFailure) {
        statement.bind(2, playerID)
        statement.bind(4, transactionID)
        statement.bind(5, milliseconds)
        try statement.run()
    }

    /// Writes the last week's counts, then every player's lifetime count and balances.
    /// Players go in ID order, so these inserts walk each table's key order once.
    func insertTotals() throws(BenchSQLiteFailure) {
        try writeWeek()
        insertPurchaseCount.bind(3, PurchasePeriod.lifetime)
        for (player, purchases) in purchasesByPlayer.enumerated() where purchases > 0 {
            let playerID = LedgerPrefill.playerID(number: player)
            insertPurchaseCount.bind(1, playerID)
            insertPurchaseCount.bind(4, Int64(purchases))
            try insertPurchaseCount.run()
            summary.purchaseCountRowCount += 1
            for line in plan.grants {
                insertBalance.bind(1, playerID)
                insertBalance.bind(2, line.id)
                insertBalance.bind(3, line.quantity * Int64(purchases))
                try insertBalance.run()
                summary.balanceRowCount += 1
            }
        }
    }

    /// Writes the finished week's counts and starts the week holding `milliseconds`.
    private func startWeek(at milliseconds: Int64) throws(BenchSQLiteFailure) {
        try writeWeek()
        let date = Date(ledgerMilliseconds: milliseconds)
        weekKey = PurchasePeriod.weekKey(for: date)
        weekEndMilliseconds = PurchasePeriod.nextWeekStart(after: date).ledgerMilliseconds
    }

    private func writeWeek() throws(BenchSQLiteFailure) {
        guard !weekPurchasesByPlayer.isEmpty else { return }
        insertPurchaseCount.bind(3, weekKey)
        for (player, purchases) in weekPurchasesByPlayer.sorted(by: { $0.key < $1.key }) {
            insertPurchaseCount.bind(1, LedgerPrefill.playerID(number: Int(player)))
            insertPurchaseCount.bind(4, Int64(purchases))
            try insertPurchaseCount.run()
            summary.purchaseCountRowCount += 1
        }
        weekPurchasesByPlayer.removeAll(keepingCapacity: true)
    }
}
