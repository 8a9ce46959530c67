import Foundation
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
        #expect(warnings.count == 3)
        #expect(warnings.allSatisfy { $0["severity"] as? String == "warning" && $0["line"] is Int })
        #expect(await ledger(["catalog", "check", repoCatalogPath, "--amount-warning", "zero"]).code == 64)
    }
}
