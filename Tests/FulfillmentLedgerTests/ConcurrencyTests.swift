import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// Many concurrent deliveries, one grant.
@Suite struct ConcurrencyTests {
    static let concurrentSubmissionCount = 16

    @Test(arguments: StoreKind.allCases)
    func concurrentSubmissionsOfOneTransactionGrantOnce(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
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
        await #expect(try harness.balance("p1", "gems") == 500)
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 1)
        _ = try await ledger.recover()
        await #expect(try harness.pendingFinishCount() == 0)
        #expect(harness.testStore.isFinished(purchase.transactionID))
    }

    @Test(arguments: StoreKind.allCases)
    func concurrentDistinctPurchasesAllGrant(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchases = (0..<32).map { harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\($0 % 4)") }
        let ledger = harness.ledger
        try await withThrowingTaskGroup(of: Void.self) { group in
            for purchase in purchases { group.addTask { _ = try await ledger.fulfill(purchase) } }
            try await group.waitForAll()
        }
        for player in 0..<4 { await #expect(try harness.balance("p\(player)", "gems") == 800) }
    }

    /// Group commit: 64 callers, some of whose grants fail inside the (possibly shared)
    /// transaction. Only those roll back; a retry grants them; nothing is granted twice.
    @Test(arguments: StoreKind.allCases)
    func failuresInsideConcurrentGrantsRollBackOnlyTheirOwn(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchases = (0..<64).map { harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\($0 % 8)") }
        harness.faults.arm(.beforeCommit, count: 5, skipCount: 10)
        let ledger = harness.ledger
        let failed = try await withThrowingTaskGroup(of: TransactionSubmission?.self) { group in
            for purchase in purchases {
                group.addTask {
                    do throws(LedgerError) {
                        #expect(try await ledger.fulfill(purchase).name == "granted")
                        return nil
                    } catch {
                        #expect(error == .injectedFault(.beforeCommit))
                        return purchase
                    }
                }
            }
            var failed: [TransactionSubmission] = []
            for try await purchase in group { if let purchase { failed.append(purchase) } }
            return failed
        }
        #expect(failed.count == 5)
        for submission in failed {
            let record = try await harness.ledger.store.read { reader throws(LedgerError) in try reader.transaction(submission.key) }
            #expect(record == nil, "the failed grant left nothing behind")
        }
        for purchase in failed { #expect(try await ledger.fulfill(purchase).name == "granted") }
        for purchase in purchases { #expect(try await ledger.fulfill(purchase).name == "alreadyFulfilled") }
        for player in 0..<8 { await #expect(try harness.balance("p\(player)", "gems") == 800) }
        await #expect(try harness.pendingFinishCount() == 0)
    }
}
