import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import Testing

/// `ledger subscriptions`, on subscriptions fulfilled through `ledger appstore fulfill`.
@Suite struct SubscriptionsCommandTests {
    static let catalog = """
        {
          "schemaVersion": 1,
          "currencies": [{ "id": "gems" }],
          "items": [],
          "entitlements": [{ "id": "vip" }],
          "products": [
            {
              "id": "vip_monthly", "kind": "autoRenewable", "subscriptionGroup": "vip",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.monthly" },
              "rewards": { "entitlements": ["vip"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 300 }] }
            }
          ]
        }
        """

    @Test func showsEachChainWithItsStateAtATime() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let catalog = try scratch.write(Self.catalog, to: "catalog.json")
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", catalog, "--root", root, "--bundle-id", AppStoreCommandTests.bundleID,
            "--environment", "Sandbox",
        ]
        let bought = try simulator.purchase(
            productID: "com.kibblestreet.td.vip.monthly", appAccountToken: AppAccountToken.forPlayer("p1"),
            type: .autoRenewableSubscription)
        let renewal = try simulator.renew(transactionID: bought.transactionID, at: bought.payload.purchaseDate.addingTimeInterval(60))
        for signed in [bought, renewal, try simulator.restore(transactionID: renewal.transactionID)] {
            let run = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: signed.jws)
            #expect(run.code == 0, "\(run.output)\(run.error)")
        }

        let now = await ledger(["subscriptions", "--db", db, "--player", "p1", "--catalog", catalog, "--json"])
        #expect(now.code == 0, "\(now.output)\(now.error)")
        let entries = try #require(try now.json()["subscriptions"] as? [[String: Any]])
        let entry = try #require(entries.first)
        #expect(entries.count == 1)
        #expect(entry["chainID"] as? String == bought.payload.originalTransactionID)
        #expect(entry["state"] as? String == "active" && entry["entitled"] as? Bool == true)
        #expect(entry["periodsGranted"] as? Int == 2 && (entry["periods"] as? [Any])?.count == 2)
        #expect(entry["entitlements"] as? [String] == ["vip"])
        // Without --json, one aligned row per chain.
        let table = await ledger(["subscriptions", "--db", db, "--player", "p1", "--catalog", catalog])
        #expect(table.outputLines.contains { $0.hasPrefix("  CHAIN ") }, "\(table.output)")
        let row = try #require(table.outputLines.first { $0.contains("appStore/\(bought.payload.originalTransactionID)") }, "\(table.output)")
        #expect(row.contains("vip_monthly") && row.contains(" active ") && row.contains(" yes ") && row.hasSuffix(" vip"), "\(row)")
        let lapsedTable = await ledger([
            "subscriptions", "--db", db, "--player", "p1", "--catalog", catalog, "--at", "2099-01-01T00:00:00Z",
        ])
        #expect(lapsedTable.output.contains("expired (stored: active)"), "\(lapsedTable.output)")

        let later = await ledger([
            "subscriptions", "--db", db, "--player", "p1", "--catalog", catalog, "--at", "2099-01-01T00:00:00Z", "--json",
        ])
        let lapsed = try #require((try later.json()["subscriptions"] as? [[String: Any]])?.first)
        #expect(lapsed["state"] as? String == "expired" && lapsed["entitled"] as? Bool == false)
        #expect(lapsed["storedState"] as? String == "active")
        #expect(try later.json()["readAt"] as? String == "2099-01-01T00:00:00.000Z")

        // A DID_RENEW through `ledger appstore notify` grants the next period to the chain's player.
        let third = try simulator.renew(transactionID: renewal.transactionID, at: renewal.payload.purchaseDate.addingTimeInterval(60))
        let notification = try scratch.write(
            try simulator.notification(type: .didRenew, transactionID: third.transactionID, at: third.payload.purchaseDate),
            to: "renew.jws")
        let notified = await ledger(["appstore", "notify"] + common + [notification])
        #expect(notified.code == 0, "\(notified.output)\(notified.error)")
        #expect(try notified.json()["outcome"] as? String == "subscription")
        #expect((try notified.json()["period"] as? [String: Any])?["outcome"] as? String == "granted")
        #expect(try notified.json()["update"] as? String == "applied", "auto-renew on, from the renewal info")
        let again = await ledger(["appstore", "notify"] + common + [notification])
        #expect(try again.json()["outcome"] as? String == "alreadyProcessed")
        let renewed = await ledger(["subscriptions", "--db", db, "--player", "p1", "--catalog", catalog, "--json"])
        #expect((try renewed.json()["subscriptions"] as? [[String: Any]])?.first?["periodsGranted"] as? Int == 3)

        let nobody = await ledger(["subscriptions", "--db", db, "--player", "p2", "--catalog", catalog])
        #expect(nobody.code == 3 && nobody.error.contains("unknown player \"p2\""), "\(nobody.output)\(nobody.error)")
        #expect(await ledger(["subscriptions", "--db", db, "--player", "p1", "--at", "yesterday"]).code == 64)
        #expect(await ledger(["subscriptions", "--db", db]).code == 64)
        #expect(await ledger(["subscriptions", "--db", scratch.path("missing.sqlite"), "--player", "p1"]).code == 66)
    }
}
