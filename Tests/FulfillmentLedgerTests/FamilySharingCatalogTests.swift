import Foundation
import FulfillmentLedger
import Testing

/// The catalog's `familySharing` field: loaded with its default, refused where it cannot apply,
/// explained, and reported by `catalog diff`.
struct FamilySharingCatalogTests {
    static func pack(_ sharing: String?) -> String {
        let field = sharing.map { #", "familySharing": \#($0)"# } ?? ""
        return """
            { "id": "pack", "kind": "nonConsumable", "storeProductIDs": { "test": "t.pack" }\(field),
              "rewards": { "currencies": [{ "id": "gems", "amount": 500 }], "entitlements": ["remove_ads"] } }
            """
    }

    static func load(_ products: String) throws -> ProductCatalog {
        try CatalogLoader.parse(Array(CatalogTests.catalog(products: products).utf8))
    }

    @Test func aNonConsumableSharesItsEntitlementsOnlyUnlessItOptsIn() throws {
        let plain = try #require(try Self.load(Self.pack(nil)).product(id: "pack"))
        #expect(plain.familySharing == .entitlementsOnly)
        #expect(plain.grantLines(familyShared: true).map(\.kind) == [.entitlement])
        #expect(plain.grantLines(familyShared: false).map(\.kind) == [.currency, .entitlement])
        let all = try #require(try Self.load(Self.pack(#""allRewards""#)).product(id: "pack"))
        #expect(all.familySharing == .allRewards)
        #expect(all.grantLines(familyShared: true) == all.rewards.lines)
        let consumable = try #require(try Self.load(CatalogTests.gemsProduct).product(id: "gems_small"))
        #expect(consumable.familySharing == nil)
    }

    @Test func aConsumableOrAnUnknownValueIsRefusedWithItsPath() {
        let consumable = """
            { "id": "gems_small", "kind": "consumable", "storeProductIDs": { "test": "t.gems" },
              "familySharing": "allRewards", "rewards": { "currencies": [{ "id": "gems", "amount": 100 }] } }
            """
        let refused = CatalogTests.problems(CatalogTests.catalog(products: consumable))
        #expect(
            refused.contains {
                $0.path == "$.products[0].familySharing"
                    && $0.message.contains("nonConsumables and autoRenewable subscriptions only")
            })
        let unknown = CatalogTests.problems(CatalogTests.catalog(products: Self.pack(#""everyone""#)))
        #expect(unknown.contains { $0.path == "$.products[0].familySharing" })
    }

    @Test func explainAndDiffSayWhatASharedCopyGrants() throws {
        let old = try Self.load(Self.pack(nil))
        let new = try Self.load(Self.pack(#""allRewards""#))
        let explained = ProductExplanation(product: try #require(old.product(id: "pack")), catalog: old)
        #expect(explained.familySharing == .entitlementsOnly)
        #expect(explained.lines.contains { $0.hasPrefix("family sharing: ") && $0.contains("entitlements only") })
        let report = CatalogDiff.compare(old: old, new: new, ledger: nil)
        let change = try #require(report.changes.first { $0.kind == .familySharingChanged })
        #expect(change.severity == .safe)
    }
}
