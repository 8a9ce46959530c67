import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import Testing

/// Consume and acknowledge after commit, and what stays in the outbox when they fail.
@Suite struct PlayFinisherTests {
    @Test func consumablesAreConsumedAndNonConsumablesAcknowledged() async throws {
        let setup = try PlayLedgerSetup()
        let gems = try await setup.buyAndFulfill("gems_small", for: "p1")
        #expect(setup.play.isConsumed(gems))
        let ads = try await setup.buyAndFulfill("remove_ads", for: "p1")
        #expect(setup.play.isAcknowledged(ads) && !setup.play.isConsumed(ads))
        await #expect(try setup.ledger.store.read { reader throws(LedgerError) in try reader.pendingFinishes(limit: 10) }.isEmpty)
    }

    @Test func aRetryableFailureStaysPendingUntilRecovered() async throws {
        let setup = try PlayLedgerSetup()
        setup.play.fail(.consume, with: .retryable("503"))
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let outcome = try await setup.fulfill(token, "gems_small", as: "p1")
        let receipt = try #require(outcome.receipt)
        #expect(outcome.name == "granted" && !receipt.finished)
        #expect(receipt.finishError?.contains("retryable: ") == true)
        await #expect(try setup.gems("p1") == 100 && !setup.play.isConsumed(token))
        let report = try await setup.ledger.recover()
        #expect(report.finishesSucceeded == [setup.key(token)] && report.isClean)
        #expect(setup.play.isConsumed(token) && setup.play.callCount(.consume) == 2)
        await #expect(try setup.gems("p1") == 100)
    }

    @Test func aPermanentFailureStaysPendingWithItsMessage() async throws {
        let setup = try PlayLedgerSetup()
        setup.play.fail(.acknowledge, with: .permanent("400 bad request"), times: 2)
        let token = setup.play.purchase(productID: "remove_ads", accountID: "p1")
        let outcome = try await setup.fulfill(token, "remove_ads", as: "p1")
        #expect(outcome.receipt?.finished == false && outcome.receipt?.finishError?.contains("permanent: ") == true)
        let report = try await setup.ledger.recover()
        #expect(report.finishesFailed[setup.key(token)]?.contains("permanent: ") == true)
        let pending = try await setup.ledger.store.read { reader throws(LedgerError) in
            try reader.pendingFinish(setup.key(token))
        }
        #expect(pending?.lastError?.contains("permanent: ") == true && !setup.play.isAcknowledged(token))
        await #expect(try setup.ledger.player("p1").entitlements.map(\.entitlementID) == ["remove_ads"])
    }

    @Test func repeatingAFinishGoogleAlreadyDidSucceeds() async throws {
        let setup = try PlayLedgerSetup()
        let token = try await setup.buyAndFulfill("gems_small", for: "p1")
        let finisher = PlayFinisher(api: setup.play, packageName: PlayLedgerSetup.packageName)
        let request = FinishRequest(key: setup.key(token), storeProductID: "gems_small", playerID: "p1", productKind: .consumable)
        try await finisher.finish(request)
        let unknown = FinishRequest(key: setup.key("nope"), storeProductID: "gems_small", playerID: "p1", productKind: .consumable)
        await #expect(throws: LedgerError.self) { try await finisher.finish(unknown) }
    }
}
