import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// The App Store's ordering rules where Google Play shares them: a period granted while Google
/// reports no access never makes the chain active, and a push whose period the ledger refuses
/// leaves the chain as it was. On each store engine.
@Suite struct PlaySubscriptionOrderTests {
    typealias Subscriptions = PlaySubscriptionTests
    static let product = Subscriptions.product
    static let day = Subscriptions.day

    /// A renewal Google put on hold before the ledger granted it: the game's delivery of the token
    /// grants the paid order once, but Google's later word (on hold) stands, so the player is not
    /// entitled until Google reports the payment recovered.
    @Test(arguments: LedgerTestEngine.allCases)
    func aPeriodGrantedWhileGoogleReportsNoAccessLeavesTheChainOnHold(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        setup.clock.advance(seconds: 30 * Self.day)
        setup.play.renewSubscription(token)
        setup.clock.advance(seconds: Self.day)
        setup.play.holdSubscription(token)
        let held = try await Subscriptions.push(setup, token, .onHold)
        #expect(held.period == nil && held.update?.name == "applied")
        #expect(try await Subscriptions.chain(setup, token).state == .billingRetry)

        setup.clock.advance(seconds: 60)
        let delivered = try await setup.fulfill(token, Self.product, as: "p1")
        #expect(delivered.name == "granted", "the renewal was paid: its order is granted once")
        await #expect(try setup.gems("p1") == 600)
        #expect(try await Subscriptions.chain(setup, token).state == .billingRetry, "Google says on hold")
        #expect(try await !Subscriptions.isVIP(setup, "p1"))

        setup.clock.advance(seconds: Self.day)
        setup.play.recoverSubscription(token)
        let recovered = try await Subscriptions.push(setup, token, .recovered)
        #expect(recovered.period?.name == "granted")
        #expect(try await Subscriptions.chain(setup, token).state == .active)
        #expect(try await Subscriptions.isVIP(setup, "p1"))
    }

    /// A renewal of a product the catalog no longer sells is refused, and Google's state read with
    /// it is not applied either: the refused period never extends the entitlement.
    @Test(arguments: LedgerTestEngine.allCases)
    func aRenewalTheLedgerRefusesLeavesTheChainAsItWas(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.subscribe(productID: Self.product, accountID: "p1")
        _ = try await setup.fulfill(token, Self.product, as: "p1")
        let before = try await Subscriptions.chain(setup, token)
        var document = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: PlayLedgerSetup.catalogPath)))
                as? [String: Any])
        let products = try #require(document["products"] as? [[String: Any]])
        document["products"] = products.filter { $0["id"] as? String != "vip_monthly" }
        _ = setup.ledger.replaceCatalog(try CatalogLoader.parse(Array(try JSONSerialization.data(withJSONObject: document))))

        setup.clock.advance(seconds: 30 * Self.day)
        setup.play.renewSubscription(token)
        let renewed = try await Subscriptions.push(setup, token, .renewed)
        #expect(renewed.period?.rejection != nil)
        #expect(renewed.update == nil, "nothing of a refused period is applied")
        #expect(try await Subscriptions.chain(setup, token) == before)
        setup.clock.advance(seconds: Self.day)
        #expect(try await !Subscriptions.isVIP(setup, "p1"), "the refused period never entitles")
    }
}
