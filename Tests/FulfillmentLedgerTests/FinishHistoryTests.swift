import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// A transaction's history tells how its finish ended: a finish that failed and was finished
/// later (by a redelivery or by `recover()`) ends with `finishSucceeded`, not with the failure;
/// a finish that succeeds at once writes no event (its record's `finishedAt` tells it), so the
/// grant's write path is unchanged.
@Suite struct FinishHistoryTests {
    static func transactionEvents(_ ledger: Ledger, _ key: TransactionKey) async throws -> [LedgerEvent] {
        try await ledger.store.read { reader throws(LedgerError) in try reader.events(transaction: key, limit: 100) }
    }

    @Test(arguments: StoreKind.allCases)
    func aFinishRecoveredLaterEndsTheHistoryAsFinished(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.finish)
        #expect(try await harness.ledger.fulfill(purchase).receipt?.finished == false)
        let report = try await harness.ledger.recover()
        #expect(report.finishesSucceeded == [purchase.key])
        let kinds = try await Self.transactionEvents(harness.ledger, purchase.key).map(\.kind)
        #expect(kinds == [.purchaseGranted, .finishFailed, .finishSucceeded])
        let last = try await Self.transactionEvents(harness.ledger, purchase.key).last
        #expect(last?.detail == "finished by recovery")
        // Nothing more on a second recovery: nothing is pending.
        _ = try await harness.ledger.recover()
        #expect(try await Self.transactionEvents(harness.ledger, purchase.key).count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func aFinishCompletedByARedeliveryEndsTheHistoryAsFinished(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.finish)
        _ = try await harness.ledger.fulfill(purchase)
        let again = try await harness.ledger.fulfill(purchase)
        #expect(again.name == "alreadyFulfilled" && again.receipt?.finished == true)
        let events = try await Self.transactionEvents(harness.ledger, purchase.key)
        #expect(events.map(\.kind) == [.purchaseGranted, .finishFailed, .finishSucceeded])
        #expect(events.last?.detail == "finished when the transaction was delivered again")
        // A finished transaction delivered again writes nothing.
        _ = try await harness.ledger.fulfill(purchase)
        #expect(try await Self.transactionEvents(harness.ledger, purchase.key).count == 3)
    }

    @Test(arguments: StoreKind.allCases)
    func aFinishThatSucceedsAtOnceWritesNoEvent(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        #expect(try await harness.ledger.fulfill(purchase).receipt?.finished == true)
        #expect(try await Self.transactionEvents(harness.ledger, purchase.key).map(\.kind) == [.purchaseGranted])
    }
}
