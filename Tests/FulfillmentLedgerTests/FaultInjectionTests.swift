import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// A fault at every named point, on every store: nothing partial, exactly one grant after recovery.
@Suite struct FaultInjectionTests {
    static let grantTransactionPoints = FaultPoint.allCases.filter(\.isInsideGrantTransaction)
    static let afterCommitPoints: [FaultPoint] = [.afterCommit, .insideFinish, .afterFinish]

    /// The bundle has four reward lines, so every point (including betweenRewards) is reached.
    static let bundle = "test.starter_bundle"
    static let bundleProgress = Progress(
        balances: ["gems": 500, "coins": 10_000], inventory: ["frost_tower": 1, "revive_token": 3], entitlements: [],
        transactionCount: 1)
    static let empty = Progress(balances: [:], inventory: [:], entitlements: [], transactionCount: 0)

    @Test(arguments: StoreKind.allCases, FaultPoint.allCases.filter { $0 == .afterVerify || $0.isInsideGrantTransaction })
    func grantFailureRollsBackEverythingAndRetryGrantsOnce(kind: StoreKind, point: FaultPoint) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: Self.bundle, playerID: "p1")
        harness.faults.arm(point, .error)
        await #expect(throws: LedgerError.injectedFault(point)) { _ = try await harness.ledger.fulfill(purchase) }
        #expect(harness.faults.firedCount(point) == 1)

        // Nothing partial: no currency, no item, no count, no ledger row, no outbox row.
        await #expect(try harness.progress("p1") == Self.empty)
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 0)
        await #expect(try harness.pendingFinishCount() == 0)
        #expect(!harness.testStore.isFinished(purchase.transactionID), "the platform transaction must stay unfinished")
        #expect(harness.testStore.finishCallCount(purchase.transactionID) == 0)

        // The platform still reports it unfinished, so recovery re-submits it: exactly one grant.
        let report = try await harness.ledger.recover()
        #expect(report.resubmitted[purchase.key]?.name == "granted")
        await #expect(try harness.progress("p1") == Self.bundleProgress)
        #expect(harness.testStore.isFinished(purchase.transactionID))
        #expect(try await harness.ledger.fulfill(purchase).name == "alreadyFulfilled")
        await #expect(try harness.progress("p1") == Self.bundleProgress)
        await #expect(try harness.purchaseCount("p1", "starter_bundle") == 1)
    }

    @Test(arguments: StoreKind.allCases, afterCommitPoints)
    func finishFailureKeepsTheGrantAndRetryOnlyFinishes(kind: StoreKind, point: FaultPoint) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: Self.bundle, playerID: "p1")
        harness.faults.arm(point, .error)
        let outcome = try await harness.ledger.fulfill(purchase)
        let receipt = try #require(outcome.receipt)
        #expect(outcome.name == "granted")
        #expect(!receipt.finished)
        #expect(receipt.finishError == LedgerError.injectedFault(point).description)
        await #expect(try harness.progress("p1") == Self.bundleProgress, "the grant and the ledger row are kept")
        await #expect(try harness.pendingFinishCount() == 1)

        // The retry calls finish only: no second grant.
        let retry = try await harness.ledger.fulfill(purchase)
        #expect(retry.name == "alreadyFulfilled")
        #expect(retry.receipt?.finished == true)
        await #expect(try harness.progress("p1") == Self.bundleProgress)
        await #expect(try harness.pendingFinishCount() == 0)
        #expect(harness.testStore.isFinished(purchase.transactionID))
        await #expect(try harness.ledger.player("p1").history.first?.finishedAt != nil)
    }

    @Test(arguments: StoreKind.allCases)
    func finishPortOutageIsRetriedByRecovery(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.coins_pack", playerID: "p1")
        // Fails in fulfill, then twice in one recover(): once from the outbox and once when
        // the platform's redelivery of the still-unfinished transaction retries the finish.
        harness.testStore.failNext(.finish, count: 3)
        #expect(try await harness.ledger.fulfill(purchase).receipt?.finished == false)
        let failedAgain = try await harness.ledger.recover()
        #expect(failedAgain.finishesFailed[purchase.key] != nil)
        #expect(failedAgain.resubmitted[purchase.key]?.receipt?.finished == false)
        let pending = try await harness.ledger.store.read { reader throws(LedgerError) in try reader.pendingFinish(purchase.key) }
        #expect(pending?.attemptCount == 3)
        #expect(pending?.lastError?.contains("outage") == true)
        let report = try await harness.ledger.recover()
        #expect(report.finishesSucceeded == [purchase.key])
        #expect(report.isClean)
        await #expect(try harness.balance("p1", "coins") == 5_000)
        #expect(harness.testStore.finishCallCount(purchase.transactionID) == 4)
    }

    @Test(arguments: StoreKind.allCases)
    func verifierOutageThrowsAndChangesNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.verify)
        await #expect(throws: LedgerError.verifierUnavailable("test store outage")) {
            _ = try await harness.ledger.fulfill(purchase)
        }
        await #expect(try harness.progress("p1") == Self.empty)
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
    }

    @Test(arguments: StoreKind.allCases)
    func sourceOutageIsReportedNotLost(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.source)
        let report = try await harness.ledger.recover()
        #expect(report.sourceError == .transactionSourceUnavailable("test store outage"))
        #expect(!report.isClean)
        let second = try await harness.ledger.recover()
        #expect(second.isClean)
        await #expect(try harness.balance("p1", "gems") == 100)
    }

    @Test(arguments: StoreKind.allCases)
    func faultBetweenLaterRewardsStillRollsBackEarlierOnes(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: Self.bundle, playerID: "p1")
        // Let two rewards apply, fail before the third.
        harness.faults.arm(.betweenRewards, .error, skipCount: 1)
        await #expect(throws: LedgerError.injectedFault(.betweenRewards)) { _ = try await harness.ledger.fulfill(purchase) }
        #expect(harness.faults.hitCount(.betweenRewards) == 2)
        await #expect(try harness.progress("p1") == Self.empty)
    }
}
