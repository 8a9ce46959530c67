import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger revoke`, `restore`, `entitlements` and `history` through the command line.
@Suite struct RefundCommandTests {
    static func revoke(_ event: [String: Any], db: String) async throws -> LedgerRun {
        let data = try JSONSerialization.data(withJSONObject: event, options: [.sortedKeys])
        return await ledger(["revoke", "--db", db, "--catalog", repoCatalogPath], input: String(decoding: data, as: UTF8.self))
    }

    static func entitlements(_ player: String, db: String) async throws -> [String: Any] {
        let run = await ledger(["entitlements", "--db", db, "--player", player, "--catalog", repoCatalogPath, "--json"])
        try #require(run.code == 0, "\(run.error)")
        return try run.json()
    }

    @Test func refundThenReversalOfRemoveAds() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let bought = try await fulfill(
            ["transactionID": "ads-1", "productID": "test.remove_ads", "playerID": "p1", "purchaseDate": "2026-11-01T10:00:00Z"],
            db: db)
        try #require(bought.code == 0)
        var state = try await Self.entitlements("p1", db: db)
        #expect((state["entitlements"] as? [String: String])?["remove_ads"] == "owned")
        #expect(state["adsAllowedWithConsent"] as? Bool == false)
        let version = try #require(state["version"] as? Int)

        let refund: [String: Any] = [
            "eventID": "n-1", "store": "test", "transactionID": "ads-1", "kind": "fullRefund",
            "eventDate": "2026-11-02T10:00:00Z",
        ]
        let refunded = try await Self.revoke(refund, db: db)
        #expect(refunded.code == 0)
        let json = try refunded.json()
        #expect(json["outcome"] as? String == "recorded")
        #expect((json["record"] as? [String: Any])?["disposition"] as? String == "applied")
        state = try await Self.entitlements("p1", db: db)
        #expect((state["entitlements"] as? [String: String])?["remove_ads"] == "notOwned")
        #expect(state["adsAllowedWithConsent"] as? Bool == true)
        #expect((state["version"] as? Int ?? 0) > version)

        let again = try await Self.revoke(refund, db: db)
        let againJSON = try again.json()
        #expect(again.code == 0 && againJSON["outcome"] as? String == "alreadyRecorded")
        var conflicting = refund
        conflicting["kind"] = "revoke"
        let conflict = try await Self.revoke(conflicting, db: db)
        let conflictJSON = try conflict.json()
        #expect(conflict.code == 3 && conflictJSON["reason"] as? String == "conflictEvent")

        let reversed = try await Self.revoke(
            ["eventID": "n-2", "store": "test", "transactionID": "ads-1", "kind": "refundReversed",
             "eventDate": "2026-11-03T10:00:00Z"], db: db)
        #expect(reversed.code == 0)
        state = try await Self.entitlements("p1", db: db)
        #expect((state["entitlements"] as? [String: String])?["remove_ads"] == "owned")

        let history = await ledger(["history", "--db", db, "--transaction", "test/ads-1", "--json"])
        #expect(history.code == 0)
        let page = try history.json()
        #expect(page["truncated"] as? Bool == false && page["nextAfter"] == nil)
        let kinds = try #require(page["events"] as? [[String: Any]]).compactMap { $0["kind"] as? String }
        #expect(kinds == ["purchaseGranted", "refundApplied", "refundReversed"])
        let text = await ledger(["history", "--db", db, "--player", "p1"])
        #expect(text.code == 0 && text.outputLines.filter { !$0.isEmpty }.count == 3)
    }

    @Test func badRevocationInputIsRefused() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let missing = try await Self.revoke(
            ["eventID": "x", "store": "test", "transactionID": "t", "kind": "fullRefund", "eventDate": "2026-11-02T10:00:00Z"],
            db: db)
        #expect(missing.code == 66, "a missing ledger is never created by revoke")
        try #require(try await fulfill(["transactionID": "seed", "productID": "test.gems_small", "playerID": "p0"], db: db).code == 0)
        #expect(await ledger(["revoke", "--db", db, "--catalog", repoCatalogPath], input: "{").code == 65)
        let missingDate = try await Self.revoke(
            ["eventID": "x", "store": "test", "transactionID": "t", "kind": "fullRefund"], db: db)
        #expect(missingDate.code == 65)
        let partial = try await Self.revoke(
            ["eventID": "x", "store": "test", "transactionID": "t", "kind": "partialRefund", "eventDate": "2026-11-02T10:00:00Z"],
            db: db)
        let partialJSON = try partial.json()
        #expect(partial.code == 3 && partialJSON["reason"] as? String == "invalidQuantity")
        #expect(await ledger(["history", "--db", db]).code == 64)
        #expect(await ledger(["history", "--db", db, "--transaction", "no-store"]).code == 64)
    }

    @Test func restoreGrantsWhatIsMissingAndTransfersOnlyWhenAsked() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let ads: [String: Any] = ["transactionID": "ads-1", "productID": "test.remove_ads", "playerID": "alice"]
        try #require(try await fulfill(ads, db: db).code == 0)
        let gems: [String: Any] = ["transactionID": "gems-1", "productID": "test.gems_small", "playerID": "alice"]
        let list = try JSONSerialization.data(withJSONObject: ["transactions": [ads, gems], "authoritative": false])
        let arguments = ["restore", "--db", db, "--catalog", repoCatalogPath]
        let restored = await ledger(arguments + ["--player", "alice"], input: String(decoding: list, as: UTF8.self))
        #expect(restored.code == 0)
        let outcomes = try #require(try restored.json()["outcomes"] as? [[String: Any]])
        #expect(outcomes.map { $0["transactionID"] as? String } == ["ads-1", "gems-1"])
        #expect(outcomes.map { ($0["outcome"] as? [String: Any])?["outcome"] as? String } == ["alreadyFulfilled", "granted"])
        #expect(try await balances("alice", db: db) == ["gems": 100])

        let bob = await ledger(arguments + ["--player", "bob"], input: String(decoding: list, as: UTF8.self))
        let bobOutcome = (try bob.json()["outcomes"] as? [[String: Any]])?.first?["outcome"] as? [String: Any]
        #expect(bobOutcome?["outcome"] as? String == "rejected")
        let moved = await ledger(arguments + ["--player", "bob", "--transfer"], input: String(decoding: list, as: UTF8.self))
        #expect((try moved.json()["transferred"] as? [[String: String]]) == [["store": "test", "transactionID": "ads-1"]])
        let bobState = try await Self.entitlements("bob", db: db)
        #expect((bobState["entitlements"] as? [String: String])?["remove_ads"] == "owned")
        #expect(await ledger(arguments + ["--player", "bob"], input: "[").code == 65)
    }

    @Test func doctorMarksOverdueFinishes() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let run = try await fulfill(
            ["transactionID": "t1", "productID": "test.gems_small", "playerID": "p1"], db: db,
            extra: ["--fault", "insideFinish=error"])
        try #require(run.code == 0)
        let fresh = await ledger(["doctor", "--db", db, "--json"])
        #expect((try fresh.json()["overdueFinishCount"] as? Int) == 0)
        let strict = await ledger(["doctor", "--db", db, "--finish-warning-hours", "0"])
        #expect(strict.code == 0)
        #expect(strict.output.contains("OVERDUE") && strict.output.contains("warning: 1 finish(es)"))
        #expect(await ledger(["doctor", "--db", db, "--finish-warning-hours", "soon"]).code == 64)
    }
}
