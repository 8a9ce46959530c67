import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator
import Testing

/// A Play one-time product sold through several purchase options and offers grants the catalog
/// product mapping the option it was bought through (`playPurchaseOption`), exactly once; a
/// rental or pre-order is granted only where the catalog maps it.
@Suite struct PlayPurchaseOptionTests {
    /// The sample catalog with products for `gems_small`'s bundle option, an offer of it, and its rental.
    static func catalog() throws -> ProductCatalog {
        let sample = try String(contentsOfFile: PlayLedgerSetup.catalogPath, encoding: .utf8)
        let options = """
            { "id": "gems_small_bundle", "kind": "consumable", "storeProductIDs": { "playStore": "gems_small" },
              "playPurchaseOption": { "purchaseOptionID": "bundle-of-3" }, "rewards": { "currencies": [{ "id": "gems", "amount": 350 }] } },
            { "id": "gems_small_bundle_sale", "kind": "consumable", "storeProductIDs": { "playStore": "gems_small" },
              "playPurchaseOption": { "purchaseOptionID": "bundle-of-3", "offerID": "winter-sale" },
              "rewards": { "currencies": [{ "id": "gems", "amount": 400 }] } },
            { "id": "gems_small_rental", "kind": "consumable", "storeProductIDs": { "playStore": "gems_small" },
              "playPurchaseOption": { "purchaseOptionID": "rent" }, "rewards": { "items": [{ "id": "xp_booster", "quantity": 1 }] } },

            """
        return try CatalogLoader.parse(Array(sample.replacingOccurrences(of: "\"products\": [\n", with: "\"products\": [\n" + options).utf8))
    }

    static func setup() async throws -> PlayLedgerSetup { try PlayLedgerSetup(catalog: try catalog()) }

    @Test(arguments: LedgerTestEngine.allCases)
    func eachPurchaseOptionGrantsItsOwnProductOnce(_ engine: LedgerTestEngine) async throws {
        let setup = try await PlayLedgerSetup.on(engine, catalog: try Self.catalog())
        let plain = setup.play.purchase(productID: "gems_small", accountID: "p1")
        let bundle = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(bundle, purchaseOptionID: "bundle-of-3")
        let sale = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(sale, purchaseOptionID: "bundle-of-3", offerID: "winter-sale")
        let otherOffer = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(otherOffer, purchaseOptionID: "bundle-of-3", offerID: "spring-sale")
        let expected = [
            (plain, "gems_small", 100), (bundle, "gems_small_bundle", 350), (sale, "gems_small_bundle_sale", 400),
            (otherOffer, "gems_small_bundle", 350),
        ]
        var total: Int64 = 0
        for (token, productID, gems) in expected {
            let outcome = try await setup.fulfill(token, "gems_small", as: "p1")
            #expect(outcome.name == "granted" && outcome.receipt?.record.productID == productID, "\(token): \(outcome)")
            #expect(outcome.receipt?.record.storeProductID == "gems_small", "the record keeps Google's product ID")
            total += Int64(gems)
            // A redelivery answers from the record, whatever the catalog maps.
            let again = try await setup.fulfill(token, "gems_small", as: "p1")
            #expect(again.name == "alreadyFulfilled" && again.receipt?.record.productID == productID)
        }
        await #expect(try setup.gems("p1") == total)
        // A refund takes back what the option's product granted.
        setup.clock.advance(seconds: 60)
        setup.play.void(token: sale)
        let sync = try await setup.sync().run()
        #expect(sync.recorded == 1, "\(sync)")
        await #expect(try setup.gems("p1") == total - 400)
    }

    @Test func aRentalOrPreOrderIsGrantedOnlyWhereTheCatalogMapsIt() async throws {
        let setup = try await Self.setup()
        let rental = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(rental, purchaseOptionID: "rent", rental: true)
        let granted = try await setup.fulfill(rental, "gems_small", as: "p1")
        #expect(granted.name == "granted" && granted.receipt?.record.productID == "gems_small_rental", "\(granted)")
        #expect(try await setup.ledger.player("p1").inventory["xp_booster"] == 1)
        // A pre-order, and a rental through an option no product maps, are refused with a typed reason.
        let preorder = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(preorder, purchaseOptionID: "pre", preorderReleaseTime: setup.clock.now().addingTimeInterval(86_400))
        let otherRental = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(otherRental, purchaseOptionID: "rent-week", rental: true)
        for token in [preorder, otherRental] {
            let rejection = try #require(try await setup.fulfill(token, "gems_small", as: "p1").rejection)
            #expect(rejection.reason == .unsupportedProductType, "\(rejection)")
            #expect(!setup.play.isConsumed(token) && !setup.play.isAcknowledged(token))
        }
        await #expect(try setup.gems("p1") == 0)
    }

    @Test func aMalformedPurchaseOptionIsUnverifiedAndAnOldTokenGrantsTheProductItself() async throws {
        let setup = try await Self.setup()
        let token = setup.play.purchase(productID: "gems_small", accountID: "p1")
        setup.play.setOffer(token, purchaseOptionID: "bundle-of-3")
        for alter: @Sendable (inout ProductPurchaseV2) -> Void in [
            { $0.productLineItem?[0].productOfferDetails?.purchaseOptionId = String(repeating: "b", count: 64) },
            { $0.productLineItem?[0].productOfferDetails?.purchaseOptionId = "" },
            { $0.productLineItem?[0].productOfferDetails?.offerId = String(repeating: "o", count: 64) },
        ] {
            var api = AlteredPlayAPI(play: setup.play)
            api.alterV2 = alter
            let outcome = try await PlayProductsV2Tests.fulfill(try PlayProductsV2Tests.ledger(setup, api: api), token)
            #expect(outcome.rejection?.reason == .unverified, "\(outcome)")
        }
        // purchases.products.get names no option: the product mapping gems_small itself.
        var api = AlteredPlayAPI(play: setup.play)
        api.v2Unknown = true
        let outcome = try await PlayProductsV2Tests.fulfill(try PlayProductsV2Tests.ledger(setup, api: api), token)
        #expect(outcome.receipt?.record.productID == "gems_small", "\(outcome)")
    }
}
