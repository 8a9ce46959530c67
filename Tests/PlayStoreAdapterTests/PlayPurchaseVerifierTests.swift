import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// Purchase tokens verified through the Play Developer API and fulfilled by the ledger.
@Suite struct PlayPurchaseVerifierTests {
    @Test func aPurchasedTokenGrantsOnceKeyedByTheToken() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let outcome = try await setup.fulfill(token, "gems_small", as: "p1")
        #expect(outcome.name == "granted" && outcome.receipt?.finished == true)
        #expect(outcome.receipt?.record.key == setup.key(token))
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 100)
    }

    @Test func aPendingPurchaseGrantsOnceWhenPaid() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 2)
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").rejection?.reason == .pending)
        await #expect(try setup.gems("p1") == 0 && !setup.play.isConsumed(token))
        setup.play.setState(token, to: 0)
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").name == "granted")
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 100)
    }

    @Test func canceledAndUnknownStatesNeverGrant() async throws {
        let setup = try PlayLedgerSetup()
        let canceled = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 1)
        #expect(try await setup.fulfill(canceled, "gems_small", as: "p1").rejection?.reason == .cancelled)
        let unknown = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 7)
        let rejection = try #require(try await setup.fulfill(unknown, "gems_small", as: "p1").rejection)
        // productsv2 reports a state it added by name; the simulator names an unknown number so.
        #expect(rejection.reason == .cancelled && rejection.message.contains("playPurchaseState:PURCHASE_STATE_7"))
        #expect(PlayPurchaseVerifier.state(nil) == PurchaseState(rawValue: "playStateMissing"))
        await #expect(try setup.gems("p1") == 0)
    }

    @Test func quantityIsHonouredAndMustMatchTheSubmission() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", quantity: 3, accountID: "p1")
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").rejection?.reason == .unverified)
        #expect(try await setup.fulfill(token, "gems_small", as: "p1", quantity: 3).name == "granted")
        await #expect(try setup.gems("p1") == 300)
    }

    @Test func theAccountBindingMustBeThePlayers() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p2")
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").rejection?.reason == .accountMismatch)
        let mapped = try PlayLedgerSetup(accountBinding: { "acct-" + $0 })
        let bound = mapped.play.purchase(productID: "gems_small", accountID: "acct-p1")
        #expect(try await mapped.fulfill(bound, "gems_small", as: "p2").rejection?.reason == .accountMismatch)
        #expect(try await mapped.fulfill(bound, "gems_small", as: "p1").name == "granted")
        let unbound = mapped.play.purchase(productID: "gems_small", accountID: nil)
        #expect(try await mapped.fulfill(unbound, "gems_small", as: "p1").name == "granted")
    }

    @Test func aTestPurchaseIsSandboxOnly() async throws {
        let production = try PlayLedgerSetup(environment: .production)
        let test = production.play.purchase(productID: "gems_small", accountID: "p1", testPurchase: true)
        #expect(try await production.fulfill(test, "gems_small", as: "p1").rejection?.reason == .wrongEnvironment)
        let real = production.play.purchase(productID: "gems_small", accountID: "p1")
        #expect(try await production.fulfill(real, "gems_small", as: "p1").name == "granted")
        let sandbox = try PlayLedgerSetup(environment: .sandbox)
        let tester = sandbox.play.purchase(productID: "gems_small", accountID: "p1", testPurchase: true)
        let outcome = try await sandbox.fulfill(tester, "gems_small", as: "p1")
        #expect(outcome.name == "granted" && outcome.receipt?.record.environment == .sandbox)
    }

    @Test func apiFailuresMapToInvalidOrUnavailable() async throws {
        let setup = try PlayLedgerSetup()
        #expect(try await setup.fulfill("no-such-token", "gems_small", as: "p1").rejection?.reason == .unverified)
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        #expect(try await setup.fulfill(token, "gems_large", as: "p1").rejection?.reason == .unverified)
        for error in [PlayAPIError.retryable("503"), .unauthorized("403"), .permanent("500 forever")] {
            setup.play.fail(.get, with: error)
            await #expect(throws: LedgerError.verifierUnavailable("Google Play purchases.productsv2 failed: \(error)")) {
                _ = try await setup.fulfill(token, "gems_small", as: "p1")
            }
        }
        await #expect(try setup.gems("p1") == 0)
        #expect(try await setup.fulfill(token, "gems_small", as: "p1").name == "granted")
    }

    @Test func factsCarryTheTokenDateAndBinding() throws {
        let clock = ManualClock()
        let play = PlayStoreSimulator(packageName: PlayLedgerSetup.packageName, clock: clock)
        let verifier = PlayPurchaseVerifier(
            api: play, packageName: PlayLedgerSetup.packageName, environment: .production, clock: clock)
        var purchase = ProductPurchase()
        purchase.purchaseState = 0
        purchase.purchaseTimeMillis = "1767571200123"
        purchase.obfuscatedExternalAccountId = "acct"
        let facts = verifier.facts(purchase, token: "tok", storeProductID: "gems_small")
        #expect(facts.transactionID == "tok" && facts.quantity == 1 && facts.accountBinding == "acct")
        #expect(facts.purchaseDate == Date(ledgerMilliseconds: 1_767_571_200_123) && facts.environment == .production)
        #expect(verifier.supportedEnvironments == [.production])
        let submission = PlayPurchaseVerifier.submission(token: "tok", storeProductID: "gems_small", playerID: "p1", quantity: 2)
        #expect(submission.transactionID == "tok" && submission.payload == "tok" && submission.store == .playStore)
    }
}
