import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ledger appstore consumption`: the V2 consumption information of a transaction, built from the
/// ledger and sent once to the simulated App Store Server API on a loopback port of this process.
struct AppStoreConsumptionCommandTests {
    static let product = "com.kibblestreet.td.gems.small"

    @Test func theConsumptionInformationIsSentOnceAndOnlyWithConsent() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let key = try AppStoreAPITestKey()
        let keyFile = try scratch.write(key.privateKeyPEM, to: "SubscriptionKey.p8")
        let api = AppStoreSimulatedServerAPI(
            simulator: simulator, key: key, keyID: ServeAppStoreServerAPITests.keyID,
            issuerID: ServeAppStoreServerAPITests.issuerID, clock: SystemClock())
        let apple = try AppStoreSimulatedServer(api: api)
        let purchase = try simulator.purchase(productID: Self.product, appAccountToken: AppAccountToken.forPlayer("p1"))
        let db = scratch.path("ledger.sqlite")
        let common = [
            "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", AppStoreCommandTests.bundleID,
            "--environment", "Sandbox",
        ]
        let consumption = ["appstore", "consumption"] + common + [
            "--transaction-id", purchase.transactionID, "--key", keyFile, "--key-id", ServeAppStoreServerAPITests.keyID,
            "--issuer-id", ServeAppStoreServerAPITests.issuerID, "--api-base", apple.baseURL.absoluteString,
        ]
        #expect(await ledger(consumption + ["--customer-consented"]).code == 66)  // the database must exist
        let granted = await ledger(["appstore", "fulfill", "--player", "p1"] + common + ["-"], input: purchase.jws)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")

        // `notify` shows the V2 body it would answer with, and sends nothing.
        let request = try simulator.notification(type: .consumptionRequest, transactionID: purchase.transactionID)
        let notified = await ledger(["appstore", "notify"] + common + ["-"], input: request)
        #expect(notified.code == 0, "\(notified.output)\(notified.error)")
        let shown = try #require(try notified.json()["consumptionInformation"] as? [String: Any])
        #expect(shown["deliveryStatus"] as? String == "DELIVERED" && shown["consumptionPercentage"] as? Int == 0)

        let refused = await ledger(consumption)
        #expect(refused.code == 3 && Self.outcome(refused) == "notConsented", "\(refused.output)")
        #expect(api.consumptionBodies(for: purchase.transactionID).isEmpty)

        let sent = await ledger(consumption + ["--customer-consented", "--refund-preference", "GRANT_FULL"])
        #expect(sent.code == 0 && Self.outcome(sent) == "sent", "\(sent.output)\(sent.error)")
        let bodies = api.consumptionBodies(for: purchase.transactionID)
        let first = try #require(bodies.first)
        let body = try #require(try JSONSerialization.jsonObject(with: first) as? [String: Any])
        #expect(body["customerConsented"] as? Bool == true && body["deliveryStatus"] as? String == "DELIVERED")
        #expect(body["consumptionPercentage"] as? Int == 0 && body["refundPreference"] as? String == "GRANT_FULL")

        let again = await ledger(consumption + ["--customer-consented"])
        #expect(again.code == 0 && Self.outcome(again) == "alreadySent", "\(again.output)")
        #expect(api.consumptionBodies(for: purchase.transactionID).count == 1)
        await apple.stop()
    }

    /// The `outcome` a run printed, or nil.
    static func outcome(_ run: LedgerRun) -> String? {
        let object = try? JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
        return object?["outcome"] as? String
    }

    @Test func usageMistakesExit64() async throws {
        let scratch = try ScratchDirectory()
        let (_, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let base = [
            "appstore", "consumption", "--db", scratch.path("ledger.sqlite"), "--catalog", repoCatalogPath, "--root",
            root, "--bundle-id", "b", "--environment", "Sandbox", "--key-id", "K", "--issuer-id", "I",
        ]
        #expect(await ledger(base + ["--key", scratch.path("none.p8")]).code == 64)  // no --transaction-id
        let withID = base + ["--transaction-id", "2000000000000001"]
        #expect(await ledger(withID).code == 64)  // no --key
        let missingKey = await ledger(withID + ["--key", scratch.path("none.p8")])
        #expect(missingKey.code == 64 && missingKey.error.contains("App Store Server API key"), "\(missingKey.error)")
        let keyFile = try scratch.write(try AppStoreAPITestKey().privateKeyPEM, to: "k.p8")
        let preference = await ledger(withID + ["--key", keyFile, "--refund-preference", "MAYBE"])
        #expect(preference.code == 64 && preference.error.contains("GRANT_PRORATED"), "\(preference.error)")
        #expect(await ledger(["appstore", "consumption", "--help"]).output.contains("--customer-consented"))
    }
}
