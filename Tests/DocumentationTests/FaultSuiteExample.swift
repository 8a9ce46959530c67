import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

// FailureModel.md's fault-injection harness and example suite, compiled line for line
// (DocumentedBlocks checks the page shows this code) and run as the tests they are.

// BEGIN Docs/FailureModel.md fault-harness
struct Harness {
    let clock = ManualClock()              // starts Monday 2026-01-05 00:00 UTC
    let testStore: TestStore
    let faults = ScriptedFaultInjector()
    let ledger: Ledger

    init() throws {
        testStore = TestStore(clock: clock)
        ledger = try Ledger(
            catalog: try CatalogLoader.load(path: "ProductCatalog.json"),
            store: InMemoryLedgerStore(),  // or SQLiteLedgerStore(path:) on a temporary file
            verifier: testStore.verifier, finisher: testStore, source: testStore,
            clock: clock, faults: faults, configuration: .sandbox)
    }

    func gems(_ player: String) async throws -> Int64 { try await ledger.player(player).balances["gems"] ?? 0 }
}
// END Docs/FailureModel.md fault-harness

// BEGIN Docs/FailureModel.md fault-suite
@Test(arguments: FaultPoint.allCases.filter(\.isInsideGrantTransaction))
func aFaultInsideTheGrantRollsBackEverything(point: FaultPoint) async throws {
    let h = try Harness()
    let purchase = h.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
    h.faults.arm(point, .error)

    await #expect(throws: LedgerError.injectedFault(point)) { try await h.ledger.fulfill(purchase) }
    let after = try await h.ledger.player("p1")
    #expect(after.balances.isEmpty && after.inventory.isEmpty && after.history.isEmpty)
    #expect(!h.testStore.isFinished(purchase.transactionID))

    let retry = try await h.ledger.fulfill(purchase)        // grants exactly once
    #expect(retry.name == "granted")
    #expect(try await h.gems("p1") == 500)
}

@Test(arguments: [FaultPoint.afterCommit, .insideFinish, .afterFinish])
func aFaultAfterTheCommitKeepsTheGrantAndRetriesOnlyTheFinish(point: FaultPoint) async throws {
    let h = try Harness()
    let purchase = h.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
    h.faults.arm(point, .error)

    let outcome = try await h.ledger.fulfill(purchase)
    #expect(outcome.name == "granted" && outcome.receipt?.finished == false)
    #expect(try await h.gems("p1") == 100)

    let report = try await h.ledger.recover()
    #expect(report.finishesSucceeded == [purchase.key])
    #expect(try await h.gems("p1") == 100)                         // nothing granted twice
    #expect(h.testStore.isFinished(purchase.transactionID))
}
// END Docs/FailureModel.md fault-suite

@Test func aPlatformFinishOutageIsRetriedOnTheNextDelivery() async throws {
    let h = try Harness()
    let purchase = h.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
    h.testStore.failNext(.finish)

    #expect(try await h.ledger.fulfill(purchase).receipt?.finished == false)
    let again = try await h.ledger.fulfill(purchase)        // the client retries
    #expect(again.name == "alreadyFulfilled" && again.receipt?.finished == true)
    #expect(try await h.gems("p1") == 100)
    #expect(h.testStore.finishCallCount(purchase.transactionID) == 2)
}

@Test func onlyTheThirdRewardBoundaryFails() async throws {
    let h = try Harness()
    let purchase = h.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")  // 4 reward lines
    h.faults.arm(.betweenRewards, .error, count: 1, skipCount: 2)

    await #expect(throws: LedgerError.injectedFault(.betweenRewards)) { try await h.ledger.fulfill(purchase) }
    #expect(h.faults.hitCount(.betweenRewards) == 3)
    #expect(try await h.gems("p1") == 0)
}

@Test func aRefundThatArrivedFirstCommitsWithItsPurchase() async throws {
    let h = try Harness()
    let purchase = h.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
    let refund = RevocationEvent(
        eventID: "r1", store: purchase.store, transactionID: purchase.transactionID,
        kind: .fullRefund, eventDate: h.clock.now().addingTimeInterval(60))
    #expect(try await h.ledger.applyRevocation(refund).record?.disposition == .awaitingPurchase)

    h.faults.arm(.beforeCommit, .error)
    await #expect(throws: LedgerError.injectedFault(.beforeCommit)) { try await h.ledger.fulfill(purchase) }
    let waiting = try await h.ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "r1") }
    #expect(waiting?.disposition == .awaitingPurchase)        // rolled back with the grant

    #expect(try await h.ledger.fulfill(purchase).name == "granted")
    #expect(try await h.gems("p1") == 0)                             // granted and refunded in one commit
    let applied = try await h.ledger.store.read { reader throws(LedgerError) in try reader.revocationEvent(id: "r1") }
    #expect(applied?.disposition == .applied)
}
