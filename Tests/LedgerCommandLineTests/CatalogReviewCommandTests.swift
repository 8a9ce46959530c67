import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger catalog diff` and `ledger catalog explain` through the command line.
@Suite struct CatalogReviewCommandTests {
    static let sample = (try? String(contentsOfFile: repoCatalogPath, encoding: .utf8)) ?? ""

    @Test func identicalCatalogsAreSafe() async {
        let run = await ledger(["catalog", "diff", repoCatalogPath, repoCatalogPath])
        #expect(run.code == 0)
        #expect(run.output.contains("0 change(s); safe"))
    }

    @Test func removingASoldProductIsDangerousAndCounted() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        for id in ["w1", "w2"] {
            let run = try await fulfill(
                ["transactionID": id, "productID": "test.weekly_offer", "playerID": "p-\(id)"], db: db)
            try #require(run.code == 0, "\(run.error)")
        }
        var text = Self.sample
        let start = try #require(text.range(of: #"    {\#n      "id": "weekly_offer""#))
        let end = try #require(text.range(of: #"    {\#n      "id": "remove_ads""#, range: start.upperBound..<text.endIndex))
        text.removeSubrange(start.lowerBound..<end.lowerBound)
        let new = try scratch.write(text, to: "new.json")

        let run = await ledger(["catalog", "diff", repoCatalogPath, new, "--db", db, "--json"])
        #expect(run.code == 1)
        let json = try run.json()
        #expect(json["dangerous"] as? Bool == true)
        let changes = try #require(json["changes"] as? [[String: Any]])
        let removal = try #require(changes.first { $0["kind"] as? String == "productRemoved" })
        #expect(removal["productID"] as? String == "weekly_offer")
        #expect(removal["soldCount"] as? Int == 2)
        #expect((removal["message"] as? String)?.contains("sold it 2 time(s)") == true)

        let text2 = await ledger(["catalog", "diff", repoCatalogPath, new, "--db", db])
        #expect(text2.code == 1)
        #expect(text2.output.contains("DANGEROUS productRemoved"))
    }

    @Test func removingAProductNeverSoldIsSafeWithALedger() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let seed = try await fulfill(["transactionID": "g1", "productID": "test.gems_small", "playerID": "p1"], db: db)
        try #require(seed.code == 0)
        var text = Self.sample
        let start = try #require(text.range(of: #"    {\#n      "id": "weekly_offer""#))
        let end = try #require(text.range(of: #"    {\#n      "id": "remove_ads""#, range: start.upperBound..<text.endIndex))
        text.removeSubrange(start.lowerBound..<end.lowerBound)
        let new = try scratch.write(text, to: "new.json")
        let run = await ledger(["catalog", "diff", repoCatalogPath, new, "--db", db])
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("never sold"))
    }

    /// The three entitlement changes that take ad removal from players who paid for it.
    static let entitlementChanges: [(name: String, old: String, new: String, kind: String)] = [
        ("removesAds true to false", #""removesAds": true"#, #""removesAds": false"#, "removesAdsChanged"),
        ("unknownPolicy failOpen to failClosed", #""unknownPolicy": "failOpen""#, #""unknownPolicy": "failClosed""#, "unknownPolicyChanged"),
        ("remove_ads renamed", #""remove_ads""#, #""no_ads""#, "entitlementRenamed"),
    ]

    @Test("each entitlement change that takes ad removal from payers exits 1, counted with --db, safe when nobody owns it",
        arguments: entitlementChanges)
    func entitlementChangeIsDangerous(change: (name: String, old: String, new: String, kind: String)) async throws {
        let scratch = try ScratchDirectory()
        var text = Self.sample
        if change.kind == "entitlementRenamed" {
            // The entitlement's declaration and the product's reward; the product keeps its ID.
            text = text.replacingOccurrences(of: #""id": "remove_ads",\#n      "name": "Remove Ads",\#n      "description""#,
                with: #""id": "no_ads",\#n      "name": "Remove Ads",\#n      "description""#)
        }
        text = text.replacingOccurrences(of: change.kind == "entitlementRenamed" ? #"["remove_ads"]"# : change.old,
            with: change.kind == "entitlementRenamed" ? #"["no_ads"]"# : change.new)
        try #require(text != Self.sample)
        let new = try scratch.write(text, to: "new.json")

        let plain = await ledger(["catalog", "diff", repoCatalogPath, new])
        #expect(plain.code == 1, "\(change.name): \(plain.output)")
        #expect(plain.output.contains("DANGEROUS \(change.kind): entitlement remove_ads"), "\(plain.output)")
        #expect(plain.outputLines.contains { $0.hasSuffix("dangerous: review every DANGEROUS line before shipping") })

        let nobody = scratch.path("nobody.sqlite")
        try #require(try await fulfill(["transactionID": "g1", "productID": "test.gems_small", "playerID": "p1"], db: nobody).code == 0)
        let unowned = await ledger(["catalog", "diff", repoCatalogPath, new, "--db", nobody])
        #expect(unowned.code == 0, "\(change.name): nobody owns remove_ads: \(unowned.output)")
        #expect(unowned.output.contains("no player owns it"))

        let owners = scratch.path("owners.sqlite")
        for player in ["p1", "p2"] {
            let bought = try await fulfill(["transactionID": "ads-\(player)", "productID": "test.remove_ads", "playerID": player], db: owners)
            try #require(bought.code == 0, "\(bought.error)")
        }
        let owned = await ledger(["catalog", "diff", repoCatalogPath, new, "--db", owners, "--json"])
        #expect(owned.code == 1)
        let json = try owned.json()
        #expect(json["dangerous"] as? Bool == true && json["severity"] as? String == "dangerous")
        let changes = try #require(json["changes"] as? [[String: Any]])
        let entitlement = try #require(changes.first { $0["kind"] as? String == change.kind })
        #expect(entitlement["ownerCount"] as? Int == 2 && entitlement["subject"] as? String == "entitlement")
        #expect(entitlement["id"] as? String == "remove_ads" && entitlement["severity"] as? String == "dangerous")
    }

    @Test("a REVIEW change is printed as such and exits 0")
    func reviewChangeExitsZero() async throws {
        let scratch = try ScratchDirectory()
        let old = try scratch.write(Self.sample.replacingOccurrences(of: #""failOpen""#, with: #""failClosed""#), to: "old.json")
        let run = await ledger(["catalog", "diff", old, repoCatalogPath])
        #expect(run.code == 0, "\(run.output)")
        #expect(run.output.contains("REVIEW    unknownPolicyChanged: entitlement remove_ads changes from failClosed to failOpen"))
        #expect(run.outputLines.contains("1 change(s); review: read every REVIEW line before shipping"))
    }

    @Test("--db counts sales per store product ID: dropping an ID never sold under is safe")
    func storeIDSalesAreCountedPerStoreID() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try #require(try await fulfill(["transactionID": "c1", "productID": "test.coins_pack", "playerID": "p1"], db: db).code == 0)
        let noPlay = try scratch.write(Self.sample.replacingOccurrences(of: #""playStore": "coins_pack","#, with: ""), to: "a.json")
        let safe = await ledger(["catalog", "diff", repoCatalogPath, noPlay, "--db", db])
        #expect(safe.code == 0, "\(safe.output)")
        #expect(safe.output.contains("ok        storeIDRemoved: coins_pack no longer maps playStore/coins_pack: the ledger has never sold it under that ID"))
        let noTest = try scratch.write(
            Self.sample.replacingOccurrences(of: #",\#n        "test": "test.coins_pack""#, with: ""), to: "b.json")
        let dangerous = await ledger(["catalog", "diff", repoCatalogPath, noTest, "--db", db])
        #expect(dangerous.code == 1)
        #expect(dangerous.output.contains("DANGEROUS storeIDRemoved: coins_pack no longer maps test/test.coins_pack: the ledger has sold it 1 time(s) under that ID"))
    }

    @Test func invalidCatalogOrMissingFileOrBadUsage() async throws {
        let scratch = try ScratchDirectory()
        let broken = try scratch.write(Self.sample.replacingOccurrences(of: #""amount": 100"#, with: #""amount": 0"#), to: "b.json")
        #expect(await ledger(["catalog", "diff", repoCatalogPath, broken]).code == 65)
        #expect(await ledger(["catalog", "diff", repoCatalogPath, scratch.path("missing.json")]).code == 66)
        #expect(await ledger(["catalog", "diff", repoCatalogPath]).code == 64)
        #expect(await ledger(["catalog", "diff", repoCatalogPath, repoCatalogPath, "--db", scratch.path("none.sqlite")]).code == 66)
        #expect(try scratch.fileNames() == ["b.json"], "a missing ledger is never created")
    }

    @Test func explainByCatalogOrStoreProductID() async throws {
        let text = await ledger(["catalog", "explain", "starter_bundle", "--catalog", repoCatalogPath])
        #expect(text.code == 0)
        #expect(text.output.contains("500 gems"))
        #expect(text.output.contains("limit: 1 per player lifetime"))
        #expect(text.output.contains("appStore: com.kibblestreet.td.bundle.starter"))
        let json = await ledger(["catalog", "explain", "gems_large", "--catalog", repoCatalogPath, "--json"])
        #expect(json.code == 0)
        #expect(try json.json()["productID"] as? String == "gems_large")
        let byStoreID = await ledger(["catalog", "explain", "com.kibblestreet.td.remove_ads", "--catalog", repoCatalogPath])
        #expect(byStoreID.output.contains("entitlement remove_ads"))
        #expect(await ledger(["catalog", "explain", "nope", "--catalog", repoCatalogPath]).code == 65)
        #expect(await ledger(["catalog", "explain", "--catalog", repoCatalogPath]).code == 64)
    }

    @Test func checkPrintsWarningsButPasses() async throws {
        let run = await ledger(["catalog", "check", repoCatalogPath, "--amount-warning", "1000", "--json"])
        #expect(run.code == 0)
        let warnings = try #require(try run.json()["warnings"] as? [[String: Any]])
        #expect(warnings.count == 4, "1200 gems, 3600 gems, 5000 coins and 10000 coins are above 1000")
        #expect(warnings.allSatisfy { $0["severity"] as? String == "warning" && $0["line"] is Int })
        #expect(await ledger(["catalog", "check", repoCatalogPath, "--amount-warning", "zero"]).code == 64)
    }
}
