import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// The fulfillment pipeline's promises, against every store implementation.
@Suite struct PipelineTests {
    @Test(arguments: StoreKind.allCases)
    func newPurchaseGrantsRecordsAndFinishes(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        let outcome = try await harness.ledger.fulfill(purchase)
        let receipt = try #require(outcome.receipt)
        #expect(outcome.name == "granted")
        #expect(receipt.finished)
        #expect(receipt.record.grants == [GrantLine(kind: .currency, id: "gems", quantity: 100)])
        #expect(receipt.record.productID == "gems_small")
        #expect(receipt.record.catalogVersion == harness.ledger.catalog.versionHash)
        await #expect(try harness.balance("p1", "gems") == 100)
        #expect(harness.testStore.isFinished(purchase.transactionID))
        await #expect(try harness.pendingFinishCount() == 0)
        // A product without a purchase limit keeps no count: nothing reads it.
        await #expect(try harness.purchaseCount("p1", "gems_small") == 0)
        // The finish is stamped on the record; it adds no event.
        let events = try await harness.ledger.player("p1").events.map(\.kind)
        #expect(events == [.purchaseGranted])
    }

    @Test(arguments: StoreKind.allCases)
    func replayGrantsNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.starter_bundle", playerID: "p1")
        let first = try await harness.ledger.fulfill(purchase)
        let before = try await harness.progress("p1")
        for _ in 0..<3 {
            let again = try await harness.ledger.fulfill(purchase)
            guard case .alreadyFulfilled(let receipt) = again else {
                Issue.record("expected alreadyFulfilled, got \(again)")
                return
            }
            #expect(receipt.record == first.receipt?.record)
            #expect(receipt.finished)
        }
        await #expect(try harness.progress("p1") == before)
        #expect(harness.testStore.finishCallCount(purchase.transactionID) == 1)
    }

    /// A redelivery whose verified facts disagree with the record is refused, not replayed:
    /// answering alreadyFulfilled would hide a store or client bug behind a success.
    @Test(arguments: StoreKind.allCases)
    func redeliveryWithOtherQuantityOrProductIsAConflict(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", quantity: 2)
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        let before = try await harness.progress("p1")

        let otherQuantity = try #require(harness.testStore.update(purchase.transactionID) { $0.quantity = 3 })
        let quantityOutcome = try await harness.ledger.fulfill(otherQuantity)
        #expect(quantityOutcome.rejection?.reason == .conflictQuantity, "\(quantityOutcome)")

        let otherProduct = try #require(
            harness.testStore.update(purchase.transactionID) {
                $0.quantity = 2
                $0.storeProductID = "test.gems_large"
            })
        let productOutcome = try await harness.ledger.fulfill(otherProduct)
        #expect(productOutcome.rejection?.reason == .conflictProduct, "\(productOutcome)")

        await #expect(try harness.progress("p1") == before, "a conflict grants nothing")
        #expect(harness.testStore.finishCallCount(purchase.transactionID) == 1)
    }

    @Test(arguments: StoreKind.allCases)
    func cancelledPurchaseChangesNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", state: .cancelled)
        let outcome = try await harness.ledger.fulfill(purchase)
        #expect(outcome.rejection?.reason == .cancelled)
        await #expect(try harness.progress("p1") == Progress(balances: [:], inventory: [:], entitlements: [], transactionCount: 0))
        #expect(!harness.testStore.isFinished(purchase.transactionID))
    }

    @Test(arguments: StoreKind.allCases)
    func unknownPurchaseStateIsNotPurchased(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", state: "refundPending")
        let outcome = try await harness.ledger.fulfill(purchase)
        #expect(outcome.rejection?.reason == .cancelled)
        await #expect(try harness.balance("p1", "gems") == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func pendingThenApprovedGrantsOnce(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let pending = harness.testStore.purchase(storeProductID: "test.weekly_offer", playerID: "p1", state: .pending)
        #expect(try await harness.ledger.fulfill(pending).rejection?.reason == .pending)
        #expect(try await harness.ledger.fulfill(pending).rejection?.reason == .pending)
        await #expect(try harness.progress("p1").transactionCount == 0)
        let approved = try #require(harness.testStore.approve(pending.transactionID))
        #expect(try await harness.ledger.fulfill(approved).name == "granted")
        #expect(try await harness.ledger.fulfill(approved).name == "alreadyFulfilled")
        await #expect(try harness.balance("p1", "gems") == 300)
        await #expect(try harness.ledger.player("p1").inventory == ["xp_booster": 2])
    }

    @Test(arguments: StoreKind.allCases)
    func pendingThenCancelledGrantsNothing(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let pending = harness.testStore.purchase(storeProductID: "test.weekly_offer", playerID: "p1", state: .pending)
        #expect(try await harness.ledger.fulfill(pending).rejection?.reason == .pending)
        let cancelled = try #require(harness.testStore.cancel(pending.transactionID))
        #expect(try await harness.ledger.fulfill(cancelled).rejection?.reason == .cancelled)
        await #expect(try harness.progress("p1") == Progress(balances: [:], inventory: [:], entitlements: [], transactionCount: 0))
    }

    @Test(arguments: StoreKind.allCases)
    func alreadyOwnedNonConsumableRecordsWhatItPaysFor(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let first = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads") == .eligible)
        let granted = try await harness.ledger.fulfill(first)
        #expect(granted.receipt?.record.grants == [GrantLine(kind: .entitlement, id: "remove_ads", quantity: 1)])
        await #expect(try harness.ledger.eligibility(playerID: "p1", productID: "remove_ads") == .alreadyOwned)

        let second = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1")
        let outcome = try await harness.ledger.fulfill(second)
        let receipt = try #require(outcome.receipt)
        #expect(outcome.name == "granted")
        #expect(
            receipt.record.grants == [GrantLine(kind: .entitlement, id: "remove_ads", quantity: 1)],
            "the second record pays for the entitlement too, so refunding the first leaves it owned")
        #expect(receipt.finished)
        let entitlements = try await harness.ledger.player("p1").entitlements
        #expect(entitlements.map(\.entitlementID) == ["remove_ads"])
        #expect(entitlements.first?.source == first.key, "the first payment is the one shown")
        await #expect(try harness.ledger.entitlements("p1").paidBy["remove_ads"] == [first.key, second.key])
    }

    @Test(arguments: StoreKind.allCases)
    func nonConsumableQuantityAboveOneIsRejected(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.remove_ads", playerID: "p1", quantity: 2)
        #expect(try await harness.ledger.fulfill(purchase).rejection?.reason == .invalidQuantity)
        let tooMany = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", quantity: 101)
        #expect(try await harness.ledger.fulfill(tooMany).rejection?.reason == .invalidQuantity)
        await #expect(try harness.progress("p1").transactionCount == 0)
    }

    @Test(arguments: StoreKind.allCases)
    func quantityMultipliesRewards(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1", quantity: 3)
        let outcome = try await harness.ledger.fulfill(purchase)
        #expect(outcome.receipt?.record.grants == [GrantLine(kind: .currency, id: "gems", quantity: 300)])
        await #expect(try harness.balance("p1", "gems") == 300)
    }

    @Test(arguments: StoreKind.allCases)
    func unverifiedIsRejected(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let forged = TestStoreTransaction(
            transactionID: "forged-1", storeProductID: "test.gems_large", playerID: "p1", verified: false,
            purchaseDate: harness.clock.now())
        #expect(try await harness.ledger.fulfill(forged.submission()).rejection?.reason == .unverified)
        var tampered = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        tampered.storeProductID = "test.gems_large"
        #expect(try await harness.ledger.fulfill(tampered).rejection?.reason == .unverified)
        let bound = TestStoreTransaction(
            transactionID: "bound-1", storeProductID: "test.gems_small", playerID: "p1", purchaseDate: harness.clock.now(),
            accountBinding: "p1")
        var otherPlayer = bound.submission()
        otherPlayer.playerID = "p2"
        #expect(try await harness.ledger.fulfill(otherPlayer).rejection?.reason == .accountMismatch)
        var garbage = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        garbage.payload = "not json"
        #expect(try await harness.ledger.fulfill(garbage).rejection?.reason == .unverified)
        await #expect(try harness.progress("p1").transactionCount == 0)
        await #expect(try harness.progress("p2").transactionCount == 0)
    }

    /// A store's own binding replaces `accountBinding` for that store only.
    @Test func aStoreAccountBindingReplacesTheDefaultForThatStore() async throws {
        let clock = ManualClock()
        let testStore = TestStore(clock: clock)
        var configuration = LedgerConfiguration.sandbox
        configuration.storeAccountBindings[.test] = { "account-\($0)" }
        #expect(configuration.accountBinding(for: .test, playerID: "p1") == "account-p1")
        #expect(configuration.accountBinding(for: .appStore, playerID: "p1") == "p1")
        let ledger = try Ledger(
            catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, source: testStore, clock: clock, configuration: configuration)
        func bound(_ transactionID: String, to account: String) -> TransactionSubmission {
            TestStoreTransaction(
                transactionID: transactionID, storeProductID: "test.gems_small", playerID: "p1", purchaseDate: clock.now(),
                accountBinding: account
            ).submission()
        }
        #expect(try await ledger.fulfill(bound("b1", to: "account-p1")).receipt != nil)
        #expect(try await ledger.fulfill(bound("b2", to: "p1")).rejection?.reason == .accountMismatch)
        #expect(try await ledger.player("p1").balances == ["gems": 100])
    }

    @Test(arguments: StoreKind.allCases)
    func revokedIsRejected(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_large", playerID: "p1")
        let revoked = try #require(harness.testStore.revoke(purchase.transactionID))
        #expect(try await harness.ledger.fulfill(revoked).rejection?.reason == .revoked)
        await #expect(try harness.balance("p1", "gems") == 0)
    }

    /// The ledger is asked before the state rules: a fulfilled purchase the store has since
    /// revoked is still answered alreadyFulfilled when redelivered (its refund is a revocation
    /// event's business), never re-judged as a new purchase.
    @Test(arguments: StoreKind.allCases)
    func aFulfilledPurchaseRedeliveredRevokedIsAlreadyFulfilled(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        harness.clock.advance(seconds: 1)
        let revoked = try #require(harness.testStore.revoke(purchase.transactionID))
        let outcome = try await harness.ledger.fulfill(revoked)
        #expect(outcome.name == "alreadyFulfilled", "\(outcome)")
        #expect(outcome.receipt?.record.key == purchase.key)
        await #expect(try harness.balance("p1", "gems") == 100)
    }

    @Test(arguments: StoreKind.allCases)
    func unknownProductAndWrongEnvironmentAreRejected(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let unknown = harness.testStore.purchase(storeProductID: "test.no_such_product", playerID: "p1")
        #expect(try await harness.ledger.fulfill(unknown).rejection?.reason == .unknownProduct)
        let xcode = TestStoreTransaction(
            transactionID: "x-1", storeProductID: "test.gems_small", playerID: "p1", environment: "xcode",
            purchaseDate: harness.clock.now())
        #expect(try await harness.ledger.fulfill(xcode.submission()).rejection?.reason == .wrongEnvironment)
        let production = TestStoreTransaction(
            transactionID: "x-2", storeProductID: "test.gems_small", playerID: "p1", environment: .production,
            purchaseDate: harness.clock.now())
        #expect(try await harness.ledger.fulfill(production.submission()).rejection?.reason == .unverified)
        await #expect(try harness.progress("p1").transactionCount == 0)
    }

    @Test func productionLedgerRefusesTheTestStoreVerifier() throws {
        #expect(throws: LedgerError.self) {
            _ = try Ledger(
                catalog: try LedgerHarness.sampleCatalog(), store: InMemoryLedgerStore(), verifier: TestStoreVerifier(),
                finisher: TestStore(), configuration: .production)
        }
    }

    @Test(arguments: StoreKind.allCases)
    func identifiersOutsideTheLimitsThrowInvalidArgument(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        var purchase = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        purchase.transactionID = ""
        await #expect(throws: LedgerError.invalidArgument("transactionID must be 1 to 4096 bytes long")) {
            _ = try await harness.ledger.fulfill(purchase)
        }
        purchase.transactionID = String(repeating: "x", count: 4_097)
        await #expect(throws: LedgerError.self) { _ = try await harness.ledger.fulfill(purchase) }
    }
}
