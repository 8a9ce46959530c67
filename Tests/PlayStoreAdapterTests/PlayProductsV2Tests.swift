import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// One-time purchases read with `purchases.productsv2` (Play Billing Library 8): purchase options
/// and offers, quantities per line item, rentals and pre-orders refused with a typed reason, and
/// `purchases.products.get` for an old token productsv2 does not know.
@Suite struct PlayProductsV2Tests {
    /// A ledger whose Play verifier reads through `api`.
    static func ledger(_ setup: PlayLedgerSetup, api: any PlayPurchasesAPI, read: PlayPurchaseVerifier.OneTimeProductRead = .productsV2)
        throws -> Ledger
    {
        var verifier = PlayPurchaseVerifier(
            api: api, packageName: PlayLedgerSetup.packageName, environment: .sandbox, clock: setup.clock)
        verifier.oneTimeProductRead = read
        return try Ledger(
            catalog: setup.ledger.catalog, store: InMemoryLedgerStore(), verifier: verifier,
            finisher: PlayFinisher(api: api, packageName: PlayLedgerSetup.packageName), clock: setup.clock,
            configuration: LedgerConfiguration(environment: .sandbox))
    }

    static func fulfill(_ ledger: Ledger, _ token: String, quantity: Int = 1) async throws -> FulfillmentOutcome {
        try await ledger.fulfill(
            PlayPurchaseVerifier.submission(token: token, storeProductID: "gems_small", playerID: "p1", quantity: quantity))
    }

    @Test(arguments: LedgerTestEngine.allCases)
    func aPurchaseThroughAPurchaseOptionIsReadWithProductsV2AndGrantedOnce(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine)
        let token = setup.play.purchase(productID: "gems_small", quantity: 3, accountID: "p1")
        setup.play.setOffer(token, purchaseOptionID: "bundle-of-3", offerID: "winter-sale")
        let answer = try await setup.play.productPurchaseV2(packageName: PlayLedgerSetup.packageName, token: token)
        #expect(answer.lineItem(for: "gems_small")?.productOfferDetails?.purchaseOptionId == "bundle-of-3")
        let outcome = try await setup.fulfill(token, "gems_small", as: "p1", quantity: 3)
        #expect(outcome.name == "granted" && outcome.receipt?.record.quantity == 3)
        #expect(setup.play.isConsumed(token), "the consume still goes to purchases.products")
        #expect(try await setup.fulfill(token, "gems_small", as: "p1", quantity: 3).name == "alreadyFulfilled")
        await #expect(try setup.gems("p1") == 300)
    }

    @Test func anOldTokenProductsV2DoesNotKnowIsReadWithProductsGet() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        var api = AlteredPlayAPI(play: setup.play)
        api.v2Unknown = true
        let ledger = try Self.ledger(setup, api: api)
        #expect(try await Self.fulfill(ledger, token).name == "granted")
        #expect(setup.play.callCount(.get) == 1, "one read through purchases.products.get")
        // A token neither knows is unverified, as before.
        #expect(try await Self.fulfill(ledger, "no-such-token").rejection?.reason == .unverified)
    }

    @Test func rentalsPreOrdersAndMultiLinePurchasesAreRefusedWithATypedReason() async throws {
        let setup = try PlayLedgerSetup()
        let rental = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(rental, purchaseOptionID: "rent", rental: true)
        let preorder = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(preorder, purchaseOptionID: "pre", preorderReleaseTime: setup.clock.now().addingTimeInterval(86_400))
        for token in [rental, preorder] {
            let rejection = try #require(try await setup.fulfill(token, "gems_small", as: "p1").rejection)
            #expect(rejection.reason == .unsupportedProductType, "\(rejection)")
            #expect(!setup.play.isConsumed(token), "nothing granted, nothing finished")
        }
        let multi = setup.play.purchase(productID: "gems_small", accountID: "p1")
        var api = AlteredPlayAPI(play: setup.play)
        api.alterV2 = { purchase in
            purchase.productLineItem?.append(.init(productId: "gems_large", productOfferDetails: nil))
        }
        let rejection = try #require(try await Self.fulfill(try Self.ledger(setup, api: api), multi).rejection)
        #expect(rejection.reason == .unsupportedProductType && rejection.message.contains("playMultiLinePurchase"))
        await #expect(try setup.gems("p1") == 0)
    }

    @Test func lineQuantitiesAreCheckedAndAMissingLineIsUnverified() async throws {
        let setup = try PlayLedgerSetup()
        let token = setup.play.purchase(productID: "gems_small", quantity: 2, accountID: "p1")
        for alter: @Sendable (inout ProductPurchaseV2) -> Void in [
            { $0.productLineItem?[0].productOfferDetails?.refundableQuantity = 3 },
            { $0.productLineItem?[0].productOfferDetails?.quantity = 0 },
            { $0.productLineItem?[0].productId = "gems_large" },
            { $0.purchaseCompletionTime = "2026-02-30T00:00:00Z" },
            { $0.productLineItem = Array(repeating: $0.productLineItem![0], count: PlayPayloadLimits.lineItemCountMax + 1) },
        ] {
            var api = AlteredPlayAPI(play: setup.play)
            api.alterV2 = alter
            let outcome = try await Self.fulfill(try Self.ledger(setup, api: api), token, quantity: 2)
            #expect(outcome.rejection?.reason == .unverified, "\(outcome)")
        }
        // Google's state names read as before; one it adds is kept and grants nothing.
        var api = AlteredPlayAPI(play: setup.play)
        api.alterV2 = { $0.purchaseStateContext = .init(purchaseState: "PURCHASE_STATE_ON_LOAN") }
        let unknown = try await Self.fulfill(try Self.ledger(setup, api: api), token, quantity: 2)
        #expect(unknown.rejection?.message.contains("playPurchaseState:PURCHASE_STATE_ON_LOAN") == true, "\(unknown)")
        // Read with purchases.products.get only, an unknown number keeps its number.
        let old = setup.play.purchase(productID: "gems_small", accountID: "p1", state: 7)
        let v1 = try await Self.fulfill(try Self.ledger(setup, api: setup.play, read: .productsV1), old)
        #expect(v1.rejection?.message.contains("playState7") == true)
    }

    @Test func theClientDecodesGooglesShapeFromItsReference() async throws {
        // The fields and values of Google's reference for ProductPurchaseV2.
        let json = """
            {"kind":"androidpublisher#productPurchaseV2",
             "productLineItem":[{"productId":"gems_small","productOfferDetails":{"offerId":"winter","purchaseOptionId":"buy",
               "offerToken":"ot","offerTags":["sale"],"quantity":5,"refundableQuantity":4,
               "consumptionState":"CONSUMPTION_STATE_YET_TO_BE_CONSUMED"}}],
             "purchaseStateContext":{"purchaseState":"PURCHASED"},"testPurchaseContext":{"fopType":"TEST"},
             "orderId":"GPA.1","obfuscatedExternalAccountId":"acct","regionCode":"US",
             "purchaseCompletionTime":"2026-11-02T10:00:00.045Z","acknowledgementState":"ACKNOWLEDGEMENT_STATE_PENDING",
             "fieldGoogleAddsLater":true}
            """
        let fixture = try PlayClientFixture { _, _ in .json(200, json) }
        let purchase = try await fixture.client.productPurchaseV2(packageName: "com.game", token: "tok/1")
        #expect(fixture.server.apiRequests.first?.target == "/androidpublisher/v3/applications/com.game/purchases/productsv2/tokens/tok%2F1")
        #expect(purchase.state == .purchased && purchase.testPurchaseContext?.fopType == "TEST")
        let shaped = try #require(try purchase.productPurchase(for: "gems_small"))
        #expect(shaped.quantity == 5 && shaped.refundableQuantity == 4 && shaped.purchaseType == 0)
        #expect(shaped.purchaseTimeMillis == "1793613600045" && shaped.consumptionState == 0 && shaped.acknowledgementState == 0)
        let broken = try PlayClientFixture { _, _ in .json(200, #"{"productLineItem": {"productId": 7}}"#) }
        await #expect(throws: PlayAPIError.self) { try await broken.client.productPurchaseV2(packageName: "com.game", token: "t") }
    }
}
