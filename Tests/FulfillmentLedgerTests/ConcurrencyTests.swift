import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Many concurrent deliveries, one grant.
@Suite struct ConcurrencyTests {
    static let concurrentSubmissionCount = 16

    @Test(arguments: StoreKind.allCases)
    func concurrentSubmissionsOfOneTransactionGrantOnce(kind: StoreKind) async throws {
        let harness = try LedgerHarness(kind)
        let purchase = harness.testStore.purchase(productID: "test.starter_bundle", playerID: "p1")
        let ledger = harness.ledger
        let names = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<Self.concurrentSubmissionCount {
                group.addTask { try await ledger.fulfill(purchase).name }
            }
            var names: [String] = []
            for try await name in group { names.append(name) }
            return names
        }
        #expect(names.filter { $0 == "granted" }.count == 1)
        #expect(names.filter { $0 == "alreadyFulfilled" }.count == Self.concurrentSubmissionCount - 1)
        #expect(try harness.balance("p1", "gems") == 500)
        #expect(try harness.purchaseCount("p1", "starter_bundle") == 1)
        _ = try await ledger.recover()
        #expect(try harness.pendingFinishCount() == 0)
        #expect(harness.testStore.isFinished(purchase.transactionID))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentDistinctPurchasesAllGrant(kind: StoreKind) async throws {
        let harness = try LedgerHarness(kind)
        let purchases = (0..<32).map { harness.testStore.purchase(productID: "test.gems_small", playerID: "p\($0 % 4)") }
        let ledger = harness.ledger
        try await withThrowingTaskGroup(of: Void.self) { group in
            for purchase in purchases { group.addTask { _ = try await ledger.fulfill(purchase) } }
            try await group.waitForAll()
        }
        for player in 0..<4 { #expect(try harness.balance("p\(player)", "gems") == 800) }
    }
}
