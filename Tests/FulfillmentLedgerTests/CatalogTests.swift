import Foundation
import FulfillmentLedger
import Testing

/// The catalog loader: strict decoding, and every problem reported in one run.
@Suite struct CatalogTests {
    /// A valid minimal catalog with one product, as a template for broken variants.
    static func catalog(products: String, schemaVersion: String = "1", extra: String = "") -> String {
        """
        {
          "schemaVersion": \(schemaVersion),\(extra)
          "currencies": [{ "id": "gems" }, { "id": "coins" }],
          "items": [{ "id": "tower" }],
          "entitlements": [{ "id": "remove_ads" }],
          "products": [\(products)]
        }
        """
    }

    static let gemsProduct = """
        { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "t.gems" },
          "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] } }
        """

    static func problems(_ text: String) -> [CatalogProblem] {
        switch CatalogLoader.validate(Array(text.utf8)) {
        case .success: return []
        case .failure(let problems): return problems.problems
        }
    }

    @Test func sampleCatalogIsValidAndRealistic() throws {
        let catalog = try LedgerHarness.sampleCatalog()
        #expect(catalog.schemaVersion == 1)
        #expect(catalog.versionHash.count == 64)
        let consumablePacks = catalog.products.filter {
            $0.kind == .consumable && $0.limit == nil && $0.rewards.lines.allSatisfy { $0.kind == .currency }
        }
        #expect(consumablePacks.count >= 2)
        let bundle = try #require(catalog.product(id: "starter_bundle"))
        #expect(bundle.limit == PurchaseLimit(count: 1, period: .lifetime))
        #expect(Set(bundle.rewards.lines.map(\.kind)) == [.currency, .item])
        #expect(catalog.product(id: "weekly_offer")?.limit == PurchaseLimit(count: 1, period: .week))
        let removeAds = try #require(catalog.product(store: .appStore, storeProductID: "com.kibblestreet.td.remove_ads"))
        #expect(removeAds.kind == .nonConsumable)
        #expect(removeAds.rewards.lines == [GrantLine(kind: .entitlement, id: "remove_ads", quantity: 1)])
        #expect(catalog.product(store: .playStore, storeProductID: "gems_small")?.id == "gems_small")
    }

    @Test func minimalCatalogIsValid() {
        #expect(Self.problems(Self.catalog(products: Self.gemsProduct)).isEmpty)
    }

    @Test func catalogBrokenInFiveWaysReportsEveryProblemAtOnce() {
        let text = Self.catalog(
            products: """
                { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "t.gems" },
                  "rewards": { "currencies": [{ "id": "gems", "ammount": 100 }] } },
                { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "t.gems" },
                  "rewards": { "currencies": [{ "id": "rubies", "amount": 0 }] } },
                { "id": "empty_pack", "kind": "consumable", "storeProductIDs": { "test": "t.empty" }, "rewards": {} }
                """, schemaVersion: "2")
        let problems = Self.problems(text)
        let paths = Set(problems.map(\.path))
        #expect(paths.contains("$.schemaVersion"))  // wrong schema version
        #expect(paths.contains("$.products[0].rewards.currencies[0].ammount"))  // unknown field
        #expect(paths.contains("$.products[1].id"))  // duplicate ID
        #expect(paths.contains("$.products[1].rewards.currencies[0].id"))  // unknown currency
        #expect(paths.contains("$.products[1].rewards.currencies[0].amount"))  // zero amount
        #expect(paths.contains("$.products[1].storeProductIDs.test"))  // store ID mapped twice
        #expect(paths.contains("$.products[2].rewards"))  // empty rewards
        #expect(problems.allSatisfy { $0.line != nil && $0.column != nil })
        let typo = problems.first { $0.path.hasSuffix("ammount") }
        #expect(typo?.message.contains("unknown field \"ammount\"") == true)
        #expect(typo?.line == 7)
    }

    @Test(arguments: [
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"currencies\": [{ \"id\": \"gems\", \"amount\": -5 }] } }", "$.products[0].rewards.currencies[0].amount", "too small"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"currencies\": [{ \"id\": \"gems\", \"amount\": 99999999999999999999 }] } }", "$.products[0].rewards.currencies[0].amount", "overflows"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"currencies\": [{ \"id\": \"gems\", \"amount\": 2.5 }] } }", "$.products[0].rewards.currencies[0].amount", "whole number"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"items\": [{ \"id\": \"sword\", \"quantity\": 1 }] } }", "$.products[0].rewards.items[0].id", "unknown item"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"vip\"] } }", "$.products[0].rewards.entitlements[0]", "unknown entitlement"),
        ("{ \"id\": \"p\", \"kind\": \"durable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0].kind", "\"consumable\" or \"nonConsumable\""),
        ("{ \"id\": \"p\", \"kind\": \"nonConsumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"currencies\": [{ \"id\": \"gems\", \"amount\": 5 }] } }", "$.products[0].rewards.entitlements", "at least one entitlement"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"epicGames\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0].storeProductIDs.epicGames", "unknown field"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"steam\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0].storeProductIDs.steam", "not a Steam item ID"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": {}, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0].storeProductIDs", "at least one store"),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] }, \"limit\": { \"count\": 1, \"per\": \"month\" } }", "$.products[0].limit.per", "\"lifetime\" or \"week\""),
        ("{ \"id\": \"p\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] }, \"price\": 0.99 }", "$.products[0].price", "unknown field"),
        ("{ \"id\": \"bad id!\", \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0].id", "not a valid ID"),
        ("{ \"kind\": \"consumable\", \"storeProductIDs\": { \"test\": \"t\" }, \"rewards\": { \"entitlements\": [\"remove_ads\"] } }", "$.products[0]", "missing required field \"id\""),
    ])
    func eachProblemIsFoundWithItsPath(product: String, path: String, message: String) {
        let problems = Self.problems(Self.catalog(products: product))
        let match = problems.first { $0.path == path }
        #expect(match != nil, "no problem at \(path); got \(problems)")
        #expect(match?.message.contains(message) == true, "\(match?.message ?? "nil") lacks \(message)")
    }

    @Test func duplicateCurrencyAndUnknownTopLevelFieldAreFound() {
        let text = """
            { "schemaVersion": 1, "currencies": [{ "id": "gems" }, { "id": "gems" }], "items": [],
              "entitlements": [], "products": [\(Self.gemsProduct)], "prices": {} }
            """
        let paths = Self.problems(text).map(\.path)
        #expect(paths.contains("$.currencies[1].id"))
        #expect(paths.contains("$.prices"))
    }

    @Test func invalidJSONIsOneProblemWithAPosition() {
        let problems = Self.problems("{\n  \"schemaVersion\": 1,\n  \"currencies\": [,]\n}")
        #expect(problems.count == 1)
        #expect(problems.first?.line == 3)
        #expect(problems.first?.message.hasPrefix("not valid JSON") == true)
    }

    @Test func missingSectionsAndWrongTypesAreReported() {
        let problems = Self.problems(#"{ "schemaVersion": "1", "currencies": {}, "products": [] }"#)
        let paths = Set(problems.map(\.path))
        #expect(paths.isSuperset(of: ["$", "$.schemaVersion", "$.currencies", "$.products"]))
        #expect(problems.contains { $0.message.contains("missing required field \"items\"") })
        #expect(problems.contains { $0.message.contains("no products") })
    }

    @Test func versionHashFollowsTheBytes() throws {
        let first = try CatalogLoader.parse(Array(Self.catalog(products: Self.gemsProduct).utf8))
        let second = try CatalogLoader.parse(Array((Self.catalog(products: Self.gemsProduct) + " ").utf8))
        #expect(first.versionHash != second.versionHash)
        #expect(first.versionHash == SHA256.hexDigest(Array(Self.catalog(products: Self.gemsProduct).utf8)))
    }

    @Test func missingFileIsUnreadableNotInvalid() {
        #expect {
            _ = try CatalogLoader.load(path: "/nonexistent/ProductCatalog.json")
        } throws: { error in
            guard case LedgerError.catalogUnreadable = error else { return false }
            return true
        }
    }
}
