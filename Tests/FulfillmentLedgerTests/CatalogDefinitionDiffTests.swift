import Foundation
import FulfillmentLedger
import Testing

/// `CatalogDiff` on currency, item and entitlement definitions: what players already own.
@Suite struct CatalogDefinitionDiffTests {
    static let sample = CatalogToolingTests.sample

    static func diff(_ replacements: [(String, String)], ledger: CatalogLedgerCounts? = nil) throws -> CatalogDiffReport {
        var text = sample
        for (old, new) in replacements {
            try #require(text.contains(old), "the sample catalog has no \(old)")
            text = text.replacingOccurrences(of: old, with: new)
        }
        return CatalogDiff.compare(old: try CatalogToolingTests.catalog(sample), new: try CatalogToolingTests.catalog(text), ledger: ledger)
    }

    static let stopsRemovingAds = [(#""removesAds": true"#, #""removesAds": false"#)]
    static let failsClosed = [(#""unknownPolicy": "failOpen""#, #""unknownPolicy": "failClosed""#)]
    /// The entitlement `remove_ads` declared and granted as `no_ads` instead.
    static let renamesEntitlement = [
        (#""id": "remove_ads",\#n      "name": "Remove Ads",\#n      "description""#, #""id": "no_ads",\#n      "name": "Remove Ads",\#n      "description""#),
        (#""entitlements": ["remove_ads"]"#, #""entitlements": ["no_ads"]"#),
    ]

    @Test("each of the three entitlement changes that take ad removal from paying players is dangerous",
        arguments: [("removesAds", stopsRemovingAds), ("unknownPolicy", failsClosed), ("rename", renamesEntitlement)])
    func entitlementChangesThatTakeFromPayersAreDangerous(name: String, replacements: [(String, String)]) throws {
        let report = try Self.diff(replacements)
        #expect(report.isDangerous, "\(name): \(report.changes.map(\.message))")
        #expect(report.severity == .dangerous)
        let change = try #require(report.changes.first { $0.dangerous })
        #expect(change.subject == .entitlement && change.id == "remove_ads", "\(name)")
        #expect(change.productID == nil)
        #expect(change.message.contains("pass --db to count"), "\(name): \(change.message)")

        let owned = try Self.diff(replacements, ledger: CatalogLedgerCounts(entitlementOwners: ["remove_ads": 3]))
        let counted = try #require(owned.changes.first { $0.subject == .entitlement && $0.dangerous }, "\(name)")
        #expect(counted.ownerCount == 3 && counted.message.contains("3 player(s) own it"), "\(name): \(counted.message)")

        let unowned = try Self.diff(replacements, ledger: CatalogLedgerCounts())
        #expect(unowned.changes.filter { $0.subject == .entitlement }.allSatisfy { $0.severity == .safe && $0.ownerCount == 0 },
            "\(name): nobody owns it, so nobody loses it")
    }

    @Test func kinds() throws {
        #expect(try Self.diff(Self.stopsRemovingAds).changes.map(\.kind) == [.removesAdsChanged])
        #expect(try Self.diff(Self.failsClosed).changes.map(\.kind) == [.unknownPolicyChanged])
        let rename = try Self.diff(Self.renamesEntitlement)
        #expect(rename.changes.first?.kind == .entitlementRenamed)
        #expect(rename.changes.dropFirst().allSatisfy { $0.kind == .rewardsChanged }, "no separate add or remove")
        let renamed = try #require(rename.changes.first)
        #expect(renamed.message.contains("renamed to no_ads"))
        #expect(renamed.message.contains("they see ads again"), "\(renamed.message)")
        #expect(renamed.message.contains("can buy it again"), "\(renamed.message)")
        // The non-consumable now grants an entitlement its buyers lack: they would be offered it again.
        let rewards = try #require(rename.changes.first { $0.productID == "remove_ads" })
        #expect(rewards.kind == .rewardsChanged && rewards.severity == .review)
        #expect(rewards.message.contains("offers it to them again"), "\(rewards.message)")
    }

    @Test("giving more is reviewed, not refused: ads removed for new owners, or failOpen during an outage")
    func changesThatGiveAreReviewed() throws {
        let old = try CatalogToolingTests.catalog(Self.sample.replacingOccurrences(of: #""removesAds": true"#, with: #""removesAds": false"#))
        let sample = try CatalogToolingTests.catalog(Self.sample)
        let ads = CatalogDiff.compare(old: old, new: sample, ledger: nil)
        #expect(ads.changes.map(\.kind) == [.removesAdsChanged])
        #expect(ads.severity == .review && !ads.isDangerous)
        let adsNobody = CatalogDiff.compare(old: old, new: sample, ledger: CatalogLedgerCounts())
        #expect(adsNobody.severity == .safe)

        let closed = try CatalogToolingTests.catalog(Self.sample.replacingOccurrences(of: #""failOpen""#, with: #""failClosed""#))
        let open = CatalogDiff.compare(old: closed, new: sample, ledger: CatalogLedgerCounts())
        #expect(open.changes.map(\.kind) == [.unknownPolicyChanged])
        #expect(open.severity == .review, "failOpen gives to non-owners too, so no owner count makes it safe")
    }

    @Test("a declared entitlement, currency or item removed is dangerous while anyone holds it")
    func removedDefinitions() throws {
        let withVIP = Self.sample.replacingOccurrences(
            of: #""entitlements": [\#n    {"#, with: #""entitlements": [\#n    { "id": "vip" },\#n    {"#)
        let old = try CatalogToolingTests.catalog(withVIP)
        let new = try CatalogToolingTests.catalog(Self.sample)
        let vip = CatalogDiff.compare(old: old, new: new, ledger: nil)
        #expect(vip.changes.map(\.kind) == [.entitlementRemoved] && vip.isDangerous)
        #expect(CatalogDiff.compare(old: old, new: new, ledger: CatalogLedgerCounts(entitlementOwners: ["remove_ads": 9])).severity == .safe)
        #expect(CatalogDiff.compare(old: new, new: old, ledger: nil).changes.map(\.kind) == [.entitlementAdded])

        let noBooster = try Self.diff([
            (#"    { "id": "xp_booster", "name": "XP Booster", "description": "Doubles tower XP for one hour." }"#, ""),
            (#"{ "id": "revive_token", "name": "Revive Token", "description": "Restores the base once per wave." },"#,
             #"{ "id": "revive_token", "name": "Revive Token", "description": "Restores the base once per wave." }"#),
            (#",\#n        "items": [{ "id": "xp_booster", "quantity": 2 }]"#, ""),
        ])
        let removal = try #require(noBooster.changes.first)
        #expect(removal.kind == .itemRemoved && removal.subject == .item && removal.id == "xp_booster" && removal.dangerous)
        #expect(removal.message.contains("unknownAsset"), "\(removal.message)")
        #expect(noBooster.changes.map(\.kind) == [.itemRemoved, .rewardsChanged])
        let held = try Self.diff(
            [(#"    { "id": "xp_booster", "name": "XP Booster", "description": "Doubles tower XP for one hour." }"#, ""),
             (#"{ "id": "revive_token", "name": "Revive Token", "description": "Restores the base once per wave." },"#,
              #"{ "id": "revive_token", "name": "Revive Token", "description": "Restores the base once per wave." }"#),
             (#",\#n        "items": [{ "id": "xp_booster", "quantity": 2 }]"#, "")],
            ledger: CatalogLedgerCounts(itemHolders: ["xp_booster": 4, "frost_tower": 1]))
        #expect(held.changes.first?.ownerCount == 4 && held.isDangerous)
    }

    @Test("a currency renamed in every product is one rename, dangerous while players hold the old one")
    func renamedCurrency() throws {
        let replacements = [
            (#"{ "id": "gems", "name": "Gems""#, #"{ "id": "diamonds", "name": "Gems""#),
            (#"{ "id": "gems", "amount""#, #"{ "id": "diamonds", "amount""#),
        ]
        let report = try Self.diff(replacements)
        let rename = try #require(report.changes.first)
        #expect(rename.kind == .currencyRenamed && rename.id == "gems" && rename.dangerous)
        #expect(rename.message.contains("renamed to diamonds (gems_small now grants diamonds)"), "\(rename.message)")
        #expect(!report.changes.contains { $0.kind == .currencyAdded || $0.kind == .currencyRemoved })
        let rewards = report.changes.filter { $0.kind == .rewardsChanged }
        // Every product that grants gems now grants diamonds instead: the rename is seen through them.
        let grantingGems = try CatalogToolingTests.catalog(Self.sample).products
            .filter { $0.rewards.lines.contains { $0.kind == .currency && $0.id == "gems" } }.map(\.id)
        #expect(Set(rewards.map(\.id)) == Set(grantingGems) && grantingGems.contains("gems_small"))
        #expect(rewards.allSatisfy { $0.severity == .safe })

        let nobody = try Self.diff(replacements, ledger: CatalogLedgerCounts(currencyHolders: ["coins": 12]))
        #expect(nobody.severity == .safe && nobody.changes.first?.ownerCount == 0)
        let holders = try Self.diff(replacements, ledger: CatalogLedgerCounts(currencyHolders: ["gems": 12]))
        #expect(holders.isDangerous && holders.changes.first?.message.contains("12 player(s) hold it") == true)
    }

    @Test("sales are counted per store product ID: removing an ID never sold is safe, though its product sold elsewhere")
    func storeIDRemovalCountsThatStoreID() throws {
        let dropPlay = [(#""playStore": "coins_pack","#, "")]
        let soldOnTest = CatalogLedgerCounts(
            salesByProduct: ["coins_pack": 5],
            salesByStoreProduct: [StoreProductKey(store: .test, storeProductID: "test.coins_pack"): 5])
        let safe = try Self.diff(dropPlay, ledger: soldOnTest)
        let removal = try #require(safe.changes.first)
        #expect(removal.kind == .storeIDRemoved && removal.severity == .safe && removal.soldCount == 0, "\(removal.message)")
        #expect(removal.message.contains("never sold it under that ID"))

        let dropTest = [(#",\#n        "test": "test.coins_pack""#, "")]
        let dangerous = try Self.diff(dropTest, ledger: soldOnTest)
        #expect(dangerous.changes.map(\.kind) == [.storeIDRemoved])
        #expect(dangerous.isDangerous && dangerous.changes.first?.soldCount == 5)

        // With per-product counts only, any sale of the product keeps a removal dangerous, as before.
        let old = try CatalogToolingTests.catalog(Self.sample)
        let new = try CatalogToolingTests.catalog(Self.sample.replacingOccurrences(of: #""playStore": "coins_pack","#, with: ""))
        #expect(CatalogDiff.compare(old: old, new: new, saleCounts: ["coins_pack": 5]).isDangerous)
        #expect(!CatalogDiff.compare(old: old, new: new, saleCounts: [:]).isDangerous)
    }

    @Test("per-product sale counts alone never make a definition change safe")
    func legacyCountsLeaveDefinitionsUncounted() throws {
        let old = try CatalogToolingTests.catalog(Self.sample)
        let new = try CatalogToolingTests.catalog(Self.sample.replacingOccurrences(of: #""removesAds": true"#, with: #""removesAds": false"#))
        let report = CatalogDiff.compare(old: old, new: new, saleCounts: [:])
        #expect(report.isDangerous && report.changes.first?.ownerCount == nil)
    }

    @Test("a change encodes its severity, subject and ID, and productID only for a product")
    func encoding() throws {
        let counts = CatalogLedgerCounts(salesByProduct: ["remove_ads": 2], entitlementOwners: ["remove_ads": 2])
        let report = try Self.diff(Self.renamesEntitlement, ledger: counts)
        let data = try JSONEncoder().encode(report.changes)
        let objects = try #require(try JSONSerialization.jsonObject(with: data) as? [[String: Any]])
        #expect(objects.first?["severity"] as? String == "dangerous" && objects.first?["dangerous"] as? Bool == true)
        #expect(objects.first?["subject"] as? String == "entitlement" && objects.first?["productID"] == nil)
        #expect(objects.first?["ownerCount"] as? Int == 2)
        let product = try #require(objects.first { $0["productID"] as? String == "remove_ads" })
        #expect(product["severity"] as? String == "review" && product["subject"] as? String == "product")
        #expect(product["soldCount"] as? Int == 2 && product["ownerCount"] == nil)
        #expect(try JSONDecoder().decode([CatalogChange].self, from: data) == report.changes)
    }
}

/// Docs/Catalog.md and the JSON Schema say which catalog changes `CatalogDiff` finds dangerous.
@Suite struct CatalogDiffDocumentationTests {
    static let root = URL(fileURLWithPath: LedgerHarness.catalogPath).deletingLastPathComponent()

    @Test("every kind of change has a row in Docs/Catalog.md's diff table", arguments: CatalogChange.Kind.allCases)
    func everyKindIsDocumented(kind: CatalogChange.Kind) throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent("Docs/Catalog.md"), encoding: .utf8)
        let rows = text.split(separator: "\n").filter { $0.hasPrefix("| `") }
        #expect(rows.contains { $0.split(separator: "|").first?.contains("`\(kind.rawValue)`") == true }, "\(kind.rawValue)")
    }

    @Test("the schema's entitlement flags say which change of them is dangerous", arguments: ["removesAds", "unknownPolicy"])
    func schemaNamesDangerousFlagChanges(field: String) throws {
        let schema = try CatalogSchemaTests.schema()
        let entitlement = try CatalogSchemaTests.schemaObject("entitlement", in: schema)
        guard case .object(let properties, _)? = entitlement["properties"], case .object(let property, _)? = properties[field],
            case .string(let description, _)? = property["description"]
        else {
            Issue.record("no description of entitlement.\(field)")
            return
        }
        #expect(description.contains("`ledger catalog diff` marks it DANGEROUS"), "\(description)")
    }
}
