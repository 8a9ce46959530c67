import Foundation
import FulfillmentLedger

/// The seven ways a player "paid and got nothing", written into a ledger through its real
/// pipeline, one player each: what the support runbook (Docs/Support.md), the lookup tests and
/// the console's browser test all look at.
///
/// The ledger must use `testStore` as its verifier, finisher and source, `faults` as its fault
/// injector, and a catalog with the test store's `test.gems_small` and `test.remove_ads`.
public struct SupportCaseFixture: Sendable {
    /// One case: its name, its player, and the transaction ID the player would quote.
    public struct Case: Hashable, Sendable {
        /// Short name, as in the runbook.
        public var name: String
        /// The player who reports it.
        public var playerID: String
        /// The store transaction ID of the purchase.
        public var transactionID: String
        /// What support should find: an attempt's code or an event kind.
        public var expected: String
    }

    /// The cases, in the runbook's order, once `write(into:)` has run.
    public private(set) var cases: [Case] = []

    /// Creates an empty fixture.
    public init() {}

    /// Runs each case through `ledger`; returns the fixture with its cases.
    public static func write(
        into ledger: Ledger, testStore: TestStore, faults: ScriptedFaultInjector
    ) async throws(LedgerError) -> SupportCaseFixture {
        var fixture = SupportCaseFixture()
        // 1. Granted, but the store was never told to finish it.
        let unfinished = testStore.purchase(storeProductID: "test.gems_small", playerID: "case-finish-failed")
        testStore.failNext(.finish)
        _ = try await ledger.fulfill(unfinished)
        fixture.add("finish failed", unfinished, expected: "finishFailed")
        // 2. The store's product is in no catalog product.
        let unknown = testStore.purchase(storeProductID: "test.gems_mega", playerID: "case-unknown-product")
        _ = try await ledger.fulfill(unknown)
        fixture.add("unknown product", unknown, expected: RejectionReason.unknownProduct.rawValue)
        // 3. An error before the commit: nothing was granted, nothing finished.
        let failed = testStore.purchase(storeProductID: "test.gems_small", playerID: "case-error-before-commit")
        faults.arm(.beforeCommit)
        do throws(LedgerError) {
            _ = try await ledger.fulfill(failed)
        } catch {
            // The failure this case is about: the journal holds it.
        }
        fixture.add("error before commit", failed, expected: LedgerError.injectedFault(.beforeCommit).codeName)
        // 4. Bought by one player, delivered again for another.
        let owned = testStore.purchase(storeProductID: "test.remove_ads", playerID: "case-owner")
        _ = try await ledger.fulfill(owned)
        var claimed = owned
        claimed.playerID = "case-owned-by-another"
        _ = try await ledger.fulfill(claimed)
        fixture.add("owned by another player", claimed, expected: RejectionReason.ownedByAnotherPlayer.rawValue)
        // 5. Granted, then refunded by the store.
        let refunded = testStore.purchase(storeProductID: "test.gems_small", playerID: "case-refunded")
        _ = try await ledger.fulfill(refunded)
        _ = try await ledger.applyRevocation(
            RevocationEvent(
                eventID: "refund-\(refunded.transactionID)", store: .test, transactionID: refunded.transactionID,
                kind: .fullRefund, eventDate: ledger.clock.now(), reason: "customer support refund"))
        fixture.add("refunded", refunded, expected: LedgerEventKind.refundApplied.rawValue)
        // 6. The payment is still pending (Ask to Buy).
        let pending = testStore.purchase(storeProductID: "test.gems_small", playerID: "case-pending", state: .pending)
        _ = try await ledger.fulfill(pending)
        fixture.add("pending", pending, expected: RejectionReason.pending.rawValue)
        // 7. The store binds the purchase to another account.
        let bound = testStore.purchase(storeProductID: "test.gems_small", playerID: "case-account-mismatch")
        let mismatched = testStore.update(bound.transactionID) { $0.accountBinding = "someone-else" } ?? bound
        _ = try await ledger.fulfill(mismatched)
        fixture.add("account mismatch", mismatched, expected: RejectionReason.accountMismatch.rawValue)
        return fixture
    }

    private mutating func add(_ name: String, _ submission: TransactionSubmission, expected: String) {
        cases.append(Case(name: name, playerID: submission.playerID, transactionID: submission.transactionID, expected: expected))
    }
}
