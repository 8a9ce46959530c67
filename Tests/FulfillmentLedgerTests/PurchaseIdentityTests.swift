import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing
import TestStoreAdapter

/// A ledger key names the purchase, not the delivery: a restored or second-device delivery
/// of a non-consumable carries a new transaction ID and the original's, and finds the record;
/// so does every refund, revoke or reversal that names either ID. Store-neutral, through the
/// test store's `originalTransactionID`, against both stores.
@Suite struct PurchaseIdentityTests {
    /// A delivery of `original` under a new transaction ID, as a restore brings it.
    static func restore(_ original: TransactionSubmission, as transactionID: String, player: String? = nil)
        -> TransactionSubmission
    {
        var document = TestStoreTransaction(
            transactionID: transactionID, storeProductID: original.storeProductID, playerID: player ?? original.playerID,
            purchaseDate: Date(timeIntervalSince1970: 1_767_571_200), originalTransactionID: original.transactionID)
        document.quantity = original.quantity
        return document.submission()
    }

    @Test(arguments: StoreKind.allCases)
    func aRestoredNonConsumableFindsItsPurchase(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        for deliveryID in ["restore-1", "device-2", "device-3"] {
            let outcome = try await harness.ledger.fulfill(Self.restore(purchase, as: deliveryID))
            #expect(outcome.name == "alreadyFulfilled", "\(deliveryID): \(outcome)")
            #expect(outcome.receipt?.record.key == purchase.key)
        }
        await #expect(try harness.balance("p1", "gems") == 1000)
        let stranger = try await harness.ledger.fulfill(Self.restore(purchase, as: "restore-9", player: "p2"))
        #expect(stranger.rejection?.reason == .ownedByAnotherPlayer)
    }

    @Test(arguments: StoreKind.allCases)
    func aConsumableIsKeyedByItsOwnTransactionID(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let first = harness.testStore.purchase(storeProductID: "test.gems_small", playerID: "p1")
        _ = try await harness.ledger.fulfill(first)
        // A consumable never shares a purchase with another transaction, whatever it names.
        let second = try await harness.ledger.fulfill(Self.restore(first, as: "gems-2"))
        #expect(second.name == "granted")
        #expect(second.receipt?.record.key.transactionID == "gems-2")
        await #expect(try harness.balance("p1", "gems") == 200)
    }

    @Test(arguments: StoreKind.allCases)
    func refundsNamingEitherIDFindTheRecordOnce(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        let restored = Self.restore(purchase, as: "restore-1")
        // First fulfilled from the restore: keyed by the original, the delivery's ID beside it.
        let record = try #require(try await harness.ledger.fulfill(restored).receipt?.record)
        #expect(record.key == purchase.key && record.storeTransactionID == "restore-1")
        harness.clock.advance(seconds: 1)
        // By the delivery's ID alone (an operator's `ledger revoke`): the partial index finds it.
        let byDelivery = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "r1", store: .test, transactionID: "restore-1", kind: .fullRefund, eventDate: harness.clock.now()))
        #expect(byDelivery.record?.disposition == .applied)
        #expect(byDelivery.record?.purchase == purchase.key)
        await #expect(try harness.balance("p1", "gems") == 0)
        harness.clock.advance(seconds: 1)
        let reversal = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "r2", store: .test, transactionID: "device-7", originalTransactionID: purchase.transactionID,
                kind: .refundReversed, eventDate: harness.clock.now()))
        #expect(reversal.record?.disposition == .applied, "a delivery never seen, with the original's ID")
        await #expect(try harness.balance("p1", "gems") == 1000)
    }

    @Test(arguments: StoreKind.allCases)
    func aRefundBeforeAnyDeliveryWaitsForThePurchaseByItsOriginal(kind: StoreKind) async throws {
        let harness = try await LedgerHarness(kind)
        let purchase = harness.testStore.purchase(storeProductID: "test.founders_pack", playerID: "p1")
        let early = try await harness.ledger.applyRevocation(
            RevocationEvent(
                eventID: "early", store: .test, transactionID: "restore-1", originalTransactionID: purchase.transactionID,
                kind: .fullRefund, eventDate: harness.clock.now()))
        #expect(early.record?.disposition == .awaitingPurchase)
        harness.clock.advance(seconds: 1)
        #expect(try await harness.ledger.fulfill(purchase).name == "granted")
        await #expect(try harness.balance("p1", "gems") == 0, "the waiting refund applied to the purchase")
        await #expect(try harness.ledger.entitlements("p1").statuses["remove_ads"] == .notOwned)
    }
}
