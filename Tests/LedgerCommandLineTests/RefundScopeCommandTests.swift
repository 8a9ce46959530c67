import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import Testing

/// The refund and restore reproductions, through the command line: a shared entitlement survives
/// the refund of one of its purchases, an authoritative restore revokes only its own store's
/// purchases and nothing fulfilled after its list was read, and keys that print alike never
/// collide.
@Suite struct RefundScopeCommandTests {
    static func restore(_ body: [String: Any], player: String, db: String) async throws -> LedgerRun {
        let data = try JSONSerialization.data(withJSONObject: body, options: [.sortedKeys])
        return await ledger(
            ["restore", "--db", db, "--catalog", repoCatalogPath, "--player", player],
            input: String(decoding: data, as: UTF8.self))
    }

    static func adsState(_ player: String, db: String) async throws -> String? {
        (try await RefundCommandTests.entitlements(player, db: db)["entitlements"] as? [String: String])?["remove_ads"]
    }

    @Test func refundingRemoveAdsLeavesItOwnedWhileTheFoundersPackPaysForIt() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        for (id, product) in [("ads-1", "test.remove_ads"), ("pack-1", "test.founders_pack")] {
            try #require(try await fulfill(["transactionID": id, "productID": product, "playerID": "p1"], db: db).code == 0)
        }
        let refund = try await RefundCommandTests.revoke(
            ["eventID": "r1", "store": "test", "transactionID": "ads-1", "kind": "fullRefund", "eventDate": "2026-12-01T00:00:00Z"],
            db: db)
        #expect(refund.code == 0, "\(refund.output)\(refund.error)")
        #expect(try await Self.adsState("p1", db: db) == "owned")
        _ = try await RefundCommandTests.revoke(
            ["eventID": "r2", "store": "test", "transactionID": "pack-1", "kind": "fullRefund", "eventDate": "2026-12-01T00:00:01Z"],
            db: db)
        #expect(try await Self.adsState("p1", db: db) == "notOwned")
    }

    @Test func anAuthoritativeTestStoreListLeavesTheAppStorePurchaseAlone() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        let simulator = try AppStoreSimulator(bundleID: "com.kibblestreet.td", environment: .sandbox)
        let root = scratch.path("root.der")
        try Data(simulator.rootCertificateDER).write(to: URL(fileURLWithPath: root))
        let purchase = try simulator.purchase(
            productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer("p1"), type: .nonConsumable)
        let bought = await ledger(
            [
                "appstore", "fulfill", "--player", "p1", "--db", db, "--catalog", repoCatalogPath, "--root", root,
                "--bundle-id", "com.kibblestreet.td", "--environment", "Sandbox", "-",
            ], input: purchase.jws)
        try #require(bought.code == 0, "\(bought.output)\(bought.error)")
        let gems: [String: Any] = ["transactionID": "g1", "productID": "test.gems_small", "playerID": "p1"]
        let run = try await Self.restore(["store": "test", "transactions": [gems], "authoritative": true], player: "p1", db: db)
        #expect(run.code == 0, "\(run.output)\(run.error)")
        #expect((try run.json()["revoked"] as? [Any])?.isEmpty == true, "a test-store list knows nothing of App Store purchases")
        #expect(try await Self.adsState("p1", db: db) == "owned")
        // A list that names another store's transaction is refused before anything changes.
        let mixed = try await Self.restore(
            ["store": "appStore", "transactions": [gems], "authoritative": true], player: "p1", db: db)
        #expect(mixed.code == 65, "\(mixed.output)\(mixed.error)")
        #expect(try await Self.adsState("p1", db: db) == "owned")
    }

    @Test func aStaleAuthoritativeListReadBeforeAPurchaseLeavesItOwned() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        try #require(
            try await fulfill(["transactionID": "ads-1", "productID": "test.remove_ads", "playerID": "p1"], db: db).code == 0)
        let stale = try await Self.restore(
            ["store": "test", "transactions": [], "authoritative": true, "readAt": "2026-01-01T00:00:00Z"], player: "p1", db: db)
        #expect(stale.code == 0)
        #expect((try stale.json()["revoked"] as? [Any])?.isEmpty == true, "the list was read before the purchase")
        #expect(try await Self.adsState("p1", db: db) == "owned")
        let current = try await Self.restore(["store": "test", "transactions": [], "authoritative": true], player: "p1", db: db)
        #expect((try current.json()["revoked"] as? [[String: String]]) == [["store": "test", "transactionID": "ads-1"]])
        #expect(try await Self.adsState("p1", db: db) == "notOwned")
    }

    /// Keys that print alike (store `test/a` + `b`, store `test` + `a/b`) used to crash the command
    /// after it committed; an unknown store is now refused before anything is granted.
    @Test func keysThatPrintAlikeNeverCrashTheCommand() async throws {
        let scratch = try ScratchDirectory()
        let db = scratch.path("ledger.sqlite")
        _ = await ledger(["init", "--db", db])
        let body: [String: Any] = [
            "transactions": [
                ["store": "test/a", "transactionID": "b", "productID": "test.gems_small", "playerID": "p1"],
                ["store": "test", "transactionID": "a/b", "productID": "test.gems_small", "playerID": "p1"],
            ],
        ]
        let run = try await Self.restore(body, player: "p1", db: db)
        #expect(run.code == 65, "\(run.output)\(run.error)")
        #expect(try await balances("p1", db: db).isEmpty, "refused before anything was granted")
        let alone = try await Self.restore(
            ["transactions": [["store": "test", "transactionID": "a/b", "productID": "test.gems_small", "playerID": "p1"]]],
            player: "p1", db: db)
        #expect(alone.code == 0)
        #expect((try alone.json()["outcomes"] as? [[String: Any]])?.first?["transactionID"] as? String == "a/b")
    }
}
