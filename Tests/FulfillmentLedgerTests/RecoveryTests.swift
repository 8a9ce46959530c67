import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import SQLiteLedgerStore
import Testing

/// Recovery after the process goes away: reopen the SQLite file and finish what was owed.
@Suite struct RecoveryTests {
    @Test func pendingFinishSurvivesReopeningTheDatabase() async throws {
        let path = try LedgerHarness.temporaryDirectory().appendingPathComponent("ledger.sqlite").path
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        let purchase = platform.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        do {
            let harness = try await LedgerHarness(.sqlite, clock: clock, testStore: platform, databasePath: path)
            harness.faults.arm(.afterCommit, .error)
            #expect(try await harness.ledger.fulfill(purchase).receipt?.finished == false)
            await harness.close()
        }
        // A new process: a new ledger over the same file and the same platform store.
        let reopened = try await LedgerHarness(.sqlite, clock: clock, testStore: platform, databasePath: path)
        await #expect(try reopened.pendingFinishCount() == 1)
        let report = try await reopened.ledger.recover()
        #expect(report.finishesSucceeded == [purchase.key])
        #expect(report.resubmitted.isEmpty, "a finished transaction is not reported by the platform again")
        #expect(platform.isFinished(purchase.transactionID))
        await #expect(try reopened.balance("p1", "gems") == 500)
        await #expect(try reopened.pendingFinishCount() == 0)
    }

    @Test func failedGrantIsResubmittedAfterReopening() async throws {
        let path = try LedgerHarness.temporaryDirectory().appendingPathComponent("ledger.sqlite").path
        let clock = ManualClock()
        let platform = TestStore(clock: clock)
        let purchase = platform.purchase(storeProductID: "test.gems_large", playerID: "p1")
        do {
            let harness = try await LedgerHarness(.sqlite, clock: clock, testStore: platform, databasePath: path)
            harness.faults.arm(.beforeCommit, .error)
            await #expect(throws: LedgerError.self) { _ = try await harness.ledger.fulfill(purchase) }
            await harness.close()
        }
        let reopened = try await LedgerHarness(.sqlite, clock: clock, testStore: platform, databasePath: path)
        await #expect(try reopened.progress("p1").transactionCount == 0)
        let report = try await reopened.ledger.recover()
        #expect(report.resubmitted[purchase.key]?.name == "granted")
        await #expect(try reopened.balance("p1", "gems") == 1_200)
        let again = try await reopened.ledger.recover()
        #expect(again.resubmitted.isEmpty && again.finishesSucceeded.isEmpty)
        await #expect(try reopened.balance("p1", "gems") == 1_200)
    }

    @Test(arguments: StoreKind.allCases)
    func recoveryResubmitsEveryUnfinishedTransactionThroughThePipeline(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let bought = (0..<5).map { harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p\($0)") }
        let pending = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p9", state: .pending)
        let report = try await harness.ledger.recover()
        #expect(report.resubmitted.count == 6)
        #expect(report.resubmitted[pending.key]?.rejection?.reason == .pending)
        for purchase in bought {
            #expect(report.resubmitted[purchase.key]?.name == "granted")
            await #expect(try harness.balance(purchase.playerID, "gems") == 100)
        }
        #expect(harness.testStore.unfinishedTransactionIDs() == [pending.transactionID])
    }
}
