import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// The catalog's `playPurchaseOption`: a product mapping one Google Play purchase option (or offer)
/// of a Play product to its own rewards, through the loader, the lookup, lint, explain and diff.
@Suite struct PurchaseOptionCatalogTests {
    static func load(_ text: String) throws -> ProductCatalog { try CatalogLoader.parse(Array(text.utf8)) }

    static func errors(_ text: String) -> [String] {
        CatalogLoader.check(Array(text.utf8)).errors.map { "\($0.path): \($0.message)" }
    }

    @Test func theMostSpecificMappingWins() throws {
        let catalog = try Self.load(PurchaseOptionCatalogFixtures.sampleWithOptions)
        func id(_ option: String?, _ offer: String? = nil) -> String? {
            catalog.product(
                store: .playStore, storeProductID: "gems_small",
                purchaseOption: option.map { StorePurchaseOption(purchaseOptionID: $0, offerID: offer) })?.id
        }
        #expect(id("bundle-of-3", "winter-sale") == "gems_small_bundle_sale")
        #expect(id("bundle-of-3") == "gems_small_bundle")
        #expect(id("bundle-of-3", "spring-sale") == "gems_small_bundle", "an offer no product maps falls back to its option")
        #expect(id("buy") == "gems_small" && id(nil) == "gems_small", "other options grant the product itself")
        #expect(id("rent") == "gems_small_rental")
        // The plain lookup never answers with an option's product; the other stores map as usual.
        #expect(catalog.product(store: .playStore, storeProductID: "gems_small")?.id == "gems_small")
        #expect(catalog.product(store: .test, storeProductID: "test.gems_small")?.id == "gems_small")
        let bundle = try #require(catalog.product(id: "gems_small_bundle"))
        #expect(bundle.purchaseOption == StorePurchaseOption(purchaseOptionID: "bundle-of-3"))
        #expect(bundle.purchaseOption(on: .playStore) != nil && bundle.purchaseOption(on: .appStore) == nil)
        #expect(
            catalog.product(
                store: .playStore, storeProductID: "gems_small",
                exactly: StorePurchaseOption(purchaseOptionID: "bundle-of-3", offerID: "spring-sale")) == nil,
            "the exact lookup does not fall back")
        // Without a product mapping gems_small itself, other options find nothing.
        let onlyOption = try Self.load(
            PurchaseOptionCatalogFixtures.sample(with: PurchaseOptionCatalogFixtures.optionProduct(id: "x", playID: "gems_new")))
        #expect(onlyOption.product(store: .playStore, storeProductID: "gems_new", purchaseOption: .init(purchaseOptionID: "buy")) == nil)
    }

    @Test func theLoaderNamesEveryBrokenMapping() throws {
        let fixtures = PurchaseOptionCatalogFixtures.invalidSchemaFixtures
        let expected: [String: String] = [
            "playPurchaseOptionUppercase": "playPurchaseOption.purchaseOptionID: \"Bundle\" is not a Google Play purchase option ID",
            "playPurchaseOptionTooLong": "is not a Google Play purchase option ID (1 to 63",
            "playOfferLeadingHyphen": "playPurchaseOption.offerID: \"-sale\" is not a Google Play offer ID",
            "playPurchaseOptionWithoutPlayStore": "map the product on playStore too",
            "playPurchaseOptionOnSubscription": "playPurchaseOption applies to one-time products only",
            "playOfferWithoutPurchaseOption": "purchaseOptionID",
        ]
        for (name, message) in expected {
            let errors = Self.errors(try #require(fixtures[name]))
            #expect(errors.contains { $0.contains(message) }, "\(name): \(errors)")
        }
        #expect(Set(expected.keys) == Set(fixtures.keys), "every fixture has its message")
        let twice = Self.errors(PurchaseOptionCatalogFixtures.purchaseOptionOnTwoProducts)
        #expect(
            twice == [
                "$.products[1].storeProductIDs.playStore: store product ID \"gems_small\" (purchase option bundle-of-3) on playStore is already mapped to product \"gems_small_bundle\" at $.products[0]; one store product can grant only one catalog product"
            ], "\(twice)")
        // The same option with an offer, and the product itself, are other mappings.
        #expect(Self.errors(PurchaseOptionCatalogFixtures.sampleWithOptions).isEmpty)
    }

    @Test func lintWarnsWhenNoProductMapsThePlayProductItself() throws {
        let lonely = PurchaseOptionCatalogFixtures.sample(
            with: PurchaseOptionCatalogFixtures.optionProduct(id: "gems_new_bundle", playID: "gems_new"))
        let warnings = CatalogLoader.check(Array(lonely.utf8)).warnings.map(\.message)
        #expect(
            warnings.contains(
                "gems_new_bundle maps only purchase option bundle-of-3 of Google Play product gems_new, and no product maps gems_new itself: a purchase of it through any other purchase option is refused as unknownProduct"),
            "\(warnings)")
        let mapped = CatalogLoader.check(Array(PurchaseOptionCatalogFixtures.sampleWithOptions.utf8)).warnings
        #expect(!mapped.contains { $0.path.hasSuffix("playPurchaseOption") })
    }

    @Test func explainSaysWhichOptionGrantsWhichProduct() throws {
        let catalog = try Self.load(PurchaseOptionCatalogFixtures.sampleWithOptions)
        let base = ProductExplanation(product: try #require(catalog.product(id: "gems_small")), catalog: catalog).lines
        #expect(base.contains("Google Play purchase options of gems_small mapped to their own products:"))
        #expect(base.contains("  - purchase option bundle-of-3: gems_small_bundle"))
        #expect(base.contains("  - purchase option bundle-of-3, offer winter-sale: gems_small_bundle_sale"))
        #expect(base.contains("  - purchase option rent: gems_small_rental"))
        let bundle = ProductExplanation(product: try #require(catalog.product(id: "gems_small_bundle")), catalog: catalog)
        #expect(bundle.purchaseOption?.purchaseOptionID == "bundle-of-3")
        #expect(bundle.lines.contains("  - playStore: gems_small, bought through purchase option bundle-of-3 only"))
        #expect(bundle.lines.contains("  except through its offer winter-sale, which grants gems_small_bundle_sale"))
        #expect(bundle.lines.contains("other purchase options of gems_small grant gems_small"))
    }

    @Test func diffReportsAMappingThatMovesToAnotherOption() throws {
        let old = try Self.load(PurchaseOptionCatalogFixtures.sampleWithOptions)
        // Adding options to a catalog remaps nothing: the product itself keeps gems_small.
        let plain = try Self.load(PurchaseOptionCatalogFixtures.sample())
        let added = CatalogDiff.compare(old: plain, new: old, ledger: nil)
        #expect(added.changes.allSatisfy { $0.kind == .productAdded }, "\(added.changes.map(\.message))")
        // The bundle now maps another option.
        let moved = try Self.load(
            PurchaseOptionCatalogFixtures.sampleWithOptions.replacingOccurrences(
                of: #""purchaseOptionID": "bundle-of-3" },"#, with: #""purchaseOptionID": "bundle-of-5" },"#))
        let report = CatalogDiff.compare(old: old, new: moved, ledger: nil)
        let messages = report.changes.map(\.message)
        #expect(
            messages.contains { $0.hasPrefix("gems_small_bundle no longer maps playStore/gems_small (purchase option bundle-of-3)") },
            "\(messages)")
        #expect(messages.contains("gems_small_bundle is now also sold as playStore/gems_small (purchase option bundle-of-5)"))
        #expect(report.isDangerous, "purchases of the old option would be granted as another product")
        // Another product takes over the option: a remap.
        let swapped = try Self.load(
            PurchaseOptionCatalogFixtures.sampleWithOptions
                .replacingOccurrences(of: #""id": "gems_small_bundle", "#, with: #""id": "gems_small_bundle_tmp", "#)
                .replacingOccurrences(of: #""id": "gems_small_rental""#, with: #""id": "gems_small_bundle""#))
        let remaps = CatalogDiff.compare(old: old, new: swapped, ledger: nil).changes.filter { $0.kind == .storeIDRemapped }
        #expect(
            remaps.contains { $0.message.hasPrefix("playStore/gems_small (purchase option rent) moves from gems_small_rental") },
            "\(remaps.map(\.message))")
    }
}
