import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import PostgresLedgerStoreTesting
import Testing

/// `ledger appstore notify` with subscription notifications delivered as Apple delivers them:
/// late and out of order, a refund before its period, a renewal refused for its account, an
/// upgrade from a yearly period. On a SQLite file and on a PostgreSQL schema.
@Suite struct AppStoreSubscriptionOrderCommandTests {
    static let day: TimeInterval = 86_400
    static let monthly = "com.kibblestreet.td.vip.monthly"
    static let yearly = "com.kibblestreet.td.vip.yearly"
    static let plus = "com.kibblestreet.td.vip.plus"
    static let catalog = """
        {
          "schemaVersion": 1,
          "currencies": [{ "id": "gems" }],
          "items": [],
          "entitlements": [{ "id": "vip" }, { "id": "vip_plus" }],
          "products": [
            {
              "id": "vip_monthly", "kind": "autoRenewable", "subscriptionGroup": "vip",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.monthly" },
              "rewards": { "entitlements": ["vip"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 300 }] }
            },
            {
              "id": "vip_yearly", "kind": "autoRenewable", "subscriptionGroup": "vip",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.yearly" },
              "rewards": { "entitlements": ["vip"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 3600 }] }
            },
            {
              "id": "vip_plus_monthly", "kind": "autoRenewable", "subscriptionGroup": "vip",
              "storeProductIDs": { "appStore": "com.kibblestreet.td.vip.plus" },
              "rewards": { "entitlements": ["vip", "vip_plus"] },
              "periodRewards": { "currencies": [{ "id": "gems", "amount": 500 }] }
            }
          ]
        }
        """

    /// Where a test's ledger lives.
    enum Engine: String, CaseIterable, CustomTestStringConvertible {
        case sqlite
        case postgres

        static var allCases: [Engine] { PostgresScratchSchema.shouldRun ? [.sqlite, .postgres] : [.sqlite] }
        var testDescription: String { rawValue }
    }

    /// A simulated App Store, its root, a catalog and an initialised ledger of `engine`.
    struct Setup {
        let scratch: ScratchDirectory
        let simulator: AppStoreSimulator
        let db: String
        let catalog: String
        let common: [String]
        let schema: PostgresScratchSchema?

        init(_ engine: Engine) async throws {
            scratch = try ScratchDirectory()
            let (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
            self.simulator = simulator
            catalog = try scratch.write(AppStoreSubscriptionOrderCommandTests.catalog, to: "catalog.json")
            switch engine {
            case .sqlite:
                schema = nil
                db = scratch.path("ledger.sqlite")
            case .postgres:
                let schema = try PostgresScratchSchema.create(prefix: "appstore_order_cli")
                self.schema = schema
                db = schema.connectionString
            }
            common = [
                "--db", db, "--catalog", catalog, "--root", root, "--bundle-id", AppStoreCommandTests.bundleID,
                "--environment", "Sandbox",
            ]
            let created = await ledger(["init", "--db", db])
            #expect(created.code == 0, "\(created.error)")
        }

        func drop() { try? schema?.drop() }

        func subscribe(_ player: String, to productID: String = monthly, at date: Date) throws -> SignedAppStoreTransaction {
            try simulator.purchase(
                productID: productID, appAccountToken: AppAccountToken.forPlayer(player), type: .autoRenewableSubscription,
                at: date)
        }

        func fulfill(_ signed: SignedAppStoreTransaction, as player: String) async -> LedgerRun {
            await ledger(["appstore", "fulfill", "--player", player] + common + ["-"], input: signed.jws)
        }

        /// `ledger appstore notify` with a signed notification.
        func notify(_ signedPayload: String) async throws -> LedgerRun {
            let file = try scratch.write(signedPayload, to: "notification-\(UUID().uuidString).jws")
            return await ledger(["appstore", "notify"] + common + [file])
        }

        /// A notification of `type` about `transactionID` signed at `date`, carrying `payload`.
        func notification(
            _ type: NotificationTypeV2, subtype: NotificationSubtype? = nil, about transactionID: String,
            carrying payload: AppStoreSimulatedTransaction, at date: Date
        ) throws -> String {
            var notification = try simulator.notificationPayload(type: type, subtype: subtype, transactionID: transactionID, at: date)
            notification.data.signedTransactionInfo = try simulator.sign(payload)
            return try simulator.sign(notification)
        }

        /// The player's one chain as `ledger subscriptions` prints it.
        func chain(_ player: String) async throws -> [String: Any] {
            let run = await ledger(["subscriptions", "--db", db, "--player", player, "--catalog", catalog, "--json"])
            #expect(run.code == 0, "\(run.error)")
            return try #require((try run.json()["subscriptions"] as? [[String: Any]])?.first)
        }

        func gems(_ player: String) async throws -> Int {
            try await balances(player, db: db)["gems"] ?? 0
        }
    }

    @Test(arguments: Engine.allCases)
    func aLateRenewalNeverReactivatesAnExpiredSubscription(_ engine: Engine) async throws {
        let setup = try await Setup(engine)
        defer { setup.drop() }
        let now = Date()
        let bought = try setup.subscribe("p1", at: now.addingTimeInterval(-35 * Self.day))
        #expect(await setup.fulfill(bought, as: "p1").code == 0)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID, at: now.addingTimeInterval(-5 * Self.day))
        let didRenew = try setup.simulator.notification(
            type: .didRenew, transactionID: renewal.transactionID, at: renewal.payload.purchaseDate)
        let expired = try await setup.notify(
            try setup.simulator.expire(transactionID: renewal.transactionID, at: now.addingTimeInterval(-Self.day)))
        #expect(expired.code == 0, "\(expired.output)")
        #expect(try expired.json()["update"] as? String == "applied")

        let late = try await setup.notify(didRenew)
        #expect(late.code == 0, "\(late.output)\(late.error)")
        #expect((try late.json()["period"] as? [String: Any])?["outcome"] as? String == "granted")
        #expect(try late.json()["update"] as? String == "stale")
        let chain = try await setup.chain("p1")
        #expect(chain["storedState"] as? String == "expired" && chain["entitled"] as? Bool == false)
        #expect(try await setup.gems("p1") == 600)
    }

    @Test(arguments: Engine.allCases)
    func aRefundBeforeItsPeriodIsAppliedWhenThePeriodArrives(_ engine: Engine) async throws {
        let setup = try await Setup(engine)
        defer { setup.drop() }
        let now = Date()
        let bought = try setup.subscribe("p2", at: now.addingTimeInterval(-35 * Self.day))
        #expect(await setup.fulfill(bought, as: "p2").code == 0)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID, at: now.addingTimeInterval(-5 * Self.day))
        let didRenew = try setup.simulator.notification(
            type: .didRenew, transactionID: renewal.transactionID, at: renewal.payload.purchaseDate)
        _ = try setup.simulator.revoke(transactionID: renewal.transactionID, at: now.addingTimeInterval(-4 * Self.day))
        let refund = try await setup.notify(
            try setup.simulator.notification(
                type: .refund, transactionID: renewal.transactionID, at: now.addingTimeInterval(-4 * Self.day)))
        #expect(refund.code == 0, "\(refund.output)\(refund.error)")
        let record = try #require((try refund.json()["revocation"] as? [String: Any])?["record"] as? [String: Any])
        #expect(record["disposition"] as? String == "awaitingPurchase")
        #expect((record["purchase"] as? [String: Any])?["transactionID"] as? String == renewal.payload.webOrderLineItemID)

        let granted = try await setup.notify(didRenew)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        #expect(try await setup.gems("p2") == 300, "period 2's gems granted and taken back at once")
        let chain = try await setup.chain("p2")
        #expect(chain["storedState"] as? String == "revoked" && chain["entitled"] as? Bool == false)
    }

    @Test(arguments: Engine.allCases)
    func aRenewalRefusedForItsAccountChangesNothing(_ engine: Engine) async throws {
        let setup = try await Setup(engine)
        defer { setup.drop() }
        let now = Date()
        let bought = try setup.subscribe("p3", at: now.addingTimeInterval(-35 * Self.day))
        #expect(await setup.fulfill(bought, as: "p3").code == 0)
        let renewal = try setup.simulator.renew(transactionID: bought.transactionID, at: now.addingTimeInterval(-5 * Self.day))
        _ = try setup.simulator.setAutoRenew(transactionID: renewal.transactionID, on: false)
        var foreign = renewal.payload
        foreign.appAccountToken = AppAccountToken.forPlayer("p4")
        let before = try await setup.chain("p3")

        let refused = try await setup.notify(
            try setup.notification(.didRenew, about: renewal.transactionID, carrying: foreign, at: now))
        #expect(refused.code == 3, "\(refused.output)\(refused.error)")
        #expect(try refused.json()["outcome"] as? String == "subscription")
        #expect((try refused.json()["period"] as? [String: Any])?["outcome"] as? String == "rejected")
        #expect(try refused.json()["update"] == nil, "no update was applied")
        let after = try await setup.chain("p3")
        #expect(after["willAutoRenew"] == nil && before["willAutoRenew"] == nil)
        #expect(after["periodsGranted"] as? Int == 1 && after["storedState"] as? String == "active")
        let history = await ledger(["history", "--db", setup.db, "--player", "p3", "--json"])
        let events = try #require(try history.json()["events"] as? [[String: Any]])
        #expect(!events.contains { $0["kind"] as? String == "subscriptionChanged" }, "no change logged on p3's chain")

        // Without its webOrderLineItemId, a subscription's transaction is refused, not logged.
        var unkeyed = renewal.payload
        unkeyed.webOrderLineItemID = nil
        let unkeyedRun = try await setup.notify(
            try setup.notification(.didRenew, about: renewal.transactionID, carrying: unkeyed, at: now))
        #expect(unkeyedRun.code == 3, "\(unkeyedRun.output)")
        #expect(try unkeyedRun.json()["outcome"] as? String == "rejected")
        #expect(unkeyedRun.output.contains("webOrderLineItemId"))
    }

    @Test(arguments: Engine.allCases)
    func anUpgradeFromAYearlyPeriodTakesEffectAtOnce(_ engine: Engine) async throws {
        let setup = try await Setup(engine)
        defer { setup.drop() }
        let now = Date()
        var yearly = try setup.subscribe("p5", to: Self.yearly, at: now.addingTimeInterval(-40 * Self.day)).payload
        yearly.expiresDate = yearly.purchaseDate.addingTimeInterval(365 * Self.day)
        let bought = SignedAppStoreTransaction(jws: try setup.simulator.sign(yearly), payload: yearly)
        #expect(await setup.fulfill(bought, as: "p5").code == 0)
        var upgrade = try setup.simulator.renew(transactionID: bought.transactionID, at: now.addingTimeInterval(-Self.day)).payload
        upgrade.productID = Self.plus

        let upgraded = try await setup.notify(
            try setup.notification(
                .didChangeRenewalPref, subtype: .upgrade, about: upgrade.transactionID, carrying: upgrade,
                at: upgrade.purchaseDate))
        #expect(upgraded.code == 0, "\(upgraded.output)\(upgraded.error)")
        #expect((try upgraded.json()["period"] as? [String: Any])?["outcome"] as? String == "granted")
        let chain = try await setup.chain("p5")
        #expect(chain["productID"] as? String == "vip_plus_monthly")
        #expect(chain["entitlements"] as? [String] == ["vip", "vip_plus"])
        #expect(chain["entitled"] as? Bool == true && chain["periodsGranted"] as? Int == 2)
        let expiresAt = try #require(chain["expiresAt"] as? String)
        #expect(expiresAt.hasPrefix(String(ISO8601DateFormatter().string(from: try #require(upgrade.expiresDate)).prefix(16))))
        #expect(try await setup.gems("p5") == 4_100)
    }
}
