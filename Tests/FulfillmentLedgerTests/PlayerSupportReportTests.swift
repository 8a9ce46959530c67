import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `Ledger.supportReport` gathers one player's case file in one read, and
/// `Ledger.retryFinish` finishes a pending purchase without touching a balance, on every engine.
@Suite struct PlayerSupportReportTests {
    @Test(arguments: StoreKind.allCases)
    func eachCasesReportHoldsWhatSupportNeeds(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let cases = try await SupportCaseFixture.write(into: harness.ledger, testStore: harness.testStore, faults: harness.faults).cases
        for supportCase in cases {
            let report = try await harness.ledger.supportReport(supportCase.playerID)
            #expect(report.isKnown, "\(supportCase.name)")
            #expect(
                report.timeline.contains { $0.kind == supportCase.expected || $0.text.contains(supportCase.expected) },
                "\(supportCase.name): \(report.timeline.map(\.text))")
            #expect(report.timeline.map(\.at) == report.timeline.map(\.at).sorted())
        }
        let unfinished = try await harness.ledger.supportReport(cases[0].playerID)
        #expect(unfinished.pendingFinishes.map(\.pending.key.transactionID) == [cases[0].transactionID])
        #expect(unfinished.pendingFinishes.first?.deadline == nil)  // the test store only redelivers
        // Oldest first, even within one millisecond: the grant, its failed finish, the finish owed.
        #expect(unfinished.timeline.map(\.kind) == ["purchaseGranted", "finishFailed", "finishPending"])
        let refunded = try await harness.ledger.supportReport(cases[4].playerID)
        #expect(refunded.revocations.map(\.event.kind) == [.fullRefund])
        let rejected = try await harness.ledger.supportReport(cases[1].playerID)
        #expect(rejected.attempts.map(\.code) == [RejectionReason.unknownProduct.rawValue])
        #expect(try await harness.ledger.supportReport("nobody").isKnown == false)
        await #expect(throws: LedgerError.self) { try await harness.ledger.supportReport("") }
    }

    @Test(arguments: StoreKind.allCases)
    func retryFinishFinishesOnceAndNeverGrants(_ kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        harness.testStore.failNext(.finish)
        _ = try await harness.ledger.fulfill(purchase)
        let key = TransactionKey(store: .test, transactionID: purchase.transactionID)
        let before = try await harness.ledger.player("p1")
        #expect(try await harness.ledger.retryFinish(key, ifOwnedBy: "p2") == .notFound)
        harness.testStore.failNext(.finish)
        guard case .failed(_, let error) = try await harness.ledger.retryFinish(key) else {
            Issue.record("a failing store leaves the finish pending")
            return
        }
        #expect(!error.isEmpty)
        guard case .finished(let record) = try await harness.ledger.retryFinish(key, ifOwnedBy: "p1") else {
            Issue.record("the second retry finishes")
            return
        }
        #expect(record.finishedAt != nil)
        guard case .alreadyFinished = try await harness.ledger.retryFinish(key) else {
            Issue.record("a finished purchase is not finished again")
            return
        }
        #expect(harness.testStore.finishCallCount(purchase.transactionID) == 3)
        let after = try await harness.ledger.player("p1")
        #expect(after.balances == before.balances && after.inventory == before.inventory)
        #expect(after.events.first?.detail == "finished when an operator retried the finish")
        #expect(try await harness.ledger.retryFinish(TransactionKey(store: .test, transactionID: "missing")) == .notFound)
    }
}
