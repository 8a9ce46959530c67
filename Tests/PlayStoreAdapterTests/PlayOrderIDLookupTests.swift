import Foundation
import FulfillmentLedger
import LedgerEngineTesting
import PlayStoreAdapter
import Testing

/// The Play order ID (`GPA.…`, the ID in the player's receipt email) is kept on the ledger record
/// and on attempts, so support finds a Play purchase from it on every engine.
@Suite struct PlayOrderIDLookupTests {
    @Test(arguments: LedgerTestEngine.allCases)
    func aGrantedPurchaseAndAPendingOneAreFoundByTheirOrderIDs(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let orderID = try #require(setup.play.storedPurchase(token)?.orderId)
        let outcome = try await setup.fulfill(token, "gems_small", as: "p1")
        #expect(outcome.receipt?.record.storeOrderID == orderID)

        let found = try await setup.ledger.lookup(orderID)
        #expect(found.records.map(\.key.transactionID) == [token])
        #expect(found.records.first?.storeOrderID == orderID)
        #expect(found.steps.first?.kind == "purchaseGranted")

        let pendingToken = setup.play.purchase(productID: "gems_small", accountID: "p2", state: 2)
        let pendingOrderID = try #require(setup.play.storedPurchase(pendingToken)?.orderId)
        #expect(try await setup.fulfill(pendingToken, "gems_small", as: "p2").rejection?.reason == .pending)
        let pending = try await setup.ledger.lookup(pendingOrderID)
        #expect(pending.records.isEmpty)
        #expect(pending.attempts.map(\.code) == ["pending"])
        #expect(pending.attempts.first?.orderID == pendingOrderID)
        #expect(pending.attempts.first?.deliveryID == pendingToken)
        // The token finds the same attempt.
        #expect(try await setup.ledger.lookup(pendingToken).attempts.count == 1)
    }

    @Test func anOverLongOrderIDIsRefusedBeforeAnythingIsGranted() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOrderID(token, to: String(repeating: "9", count: PlayPayloadLimits.orderIDByteCountMax + 1))
        let outcome = try await setup.fulfill(token, "gems_small", as: "p1")
        #expect(outcome.rejection?.reason == .unverified)
        await #expect(try setup.gems("p1") == 0)
    }
}
