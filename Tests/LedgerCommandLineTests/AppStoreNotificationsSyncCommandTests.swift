import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Testing

/// `ledger appstore notifications-sync` against the simulated App Store Server API on a
/// loopback HTTP server of this process (`AppStoreSimulatedServer`).
@Suite struct AppStoreNotificationsSyncCommandTests {
    static let product = "com.kibblestreet.td.gems.small"

    /// A simulated store and its API on a loopback port, a key file, and a ledger file that
    /// exists, with the options naming them.
    struct Apple {
        let scratch: ScratchDirectory
        let simulator: AppStoreSimulator
        let api: AppStoreSimulatedServerAPI
        let server: AppStoreSimulatedServer
        let db: String
        let options: [String]

        init() throws {
            scratch = try ScratchDirectory()
            let root: String
            (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
            let key = try AppStoreAPITestKey()
            let keyFile = try scratch.write(key.privateKeyPEM, to: "SubscriptionKey.p8")
            api = AppStoreSimulatedServerAPI(
                simulator: simulator, key: key, keyID: ServeAppStoreServerAPITests.keyID,
                issuerID: ServeAppStoreServerAPITests.issuerID, clock: SystemClock())
            server = try AppStoreSimulatedServer(api: api)
            db = scratch.path("ledger.sqlite")
            options = [
                "--db", db, "--catalog", repoCatalogPath, "--root", root, "--bundle-id", AppStoreCommandTests.bundleID,
                "--environment", "Sandbox", "--key", keyFile, "--key-id", ServeAppStoreServerAPITests.keyID,
                "--issuer-id", ServeAppStoreServerAPITests.issuerID, "--api-base", server.baseURL.absoluteString,
            ]
        }

        /// The options of `ledger appstore fulfill` and `notify`: the verifier's and the ledger's.
        var ledgerOptions: [String] { Array(options.prefix(10)) }

        func sync(_ extra: [String] = []) async -> LedgerRun {
            await ledger(["appstore", "notifications-sync"] + options + extra)
        }
    }

    @Test func aRefundApplePushedWhileTheServerWasDownIsAppliedOnce() async throws {
        let apple = try Apple()
        let purchase = try apple.simulator.purchase(
            productID: Self.product, appAccountToken: AppAccountToken.forPlayer("p1"))
        let granted = await ledger(
            ["appstore", "fulfill", "--player", "p1"] + apple.ledgerOptions + ["-"], input: purchase.jws)
        #expect(granted.code == 0, "\(granted.output)\(granted.error)")
        _ = try apple.simulator.revoke(transactionID: purchase.transactionID)
        let refund = try apple.simulator.notification(type: .refund, transactionID: purchase.transactionID)
        apple.api.recordNotification(
            refund, transactionID: purchase.transactionID, delivered: false, at: Date().addingTimeInterval(-60))

        let first = await apple.sync()
        #expect(first.code == 0, "\(first.output)\(first.error)")
        let report = try first.json()
        #expect(report["applied"] as? Int == 1 && report["revocationsApplied"] as? Int == 1, "\(first.output)")
        #expect(report["truncated"] as? Bool == false && report["watermarkSaved"] is String)
        #expect(try await balances("p1", db: apple.db)["gems"] ?? 0 == 0)

        let second = await apple.sync(["--only-failures"])
        #expect(second.code == 0, "\(second.output)\(second.error)")
        #expect(try second.json()["alreadyProcessed"] as? Int == 1 && (try second.json()["applied"]) as? Int == 0)
        #expect(try second.json()["onlyFailures"] as? Bool == true)
        await apple.server.stop()
    }

    @Test func aRateLimitExits1WithItsDateAndMistakesExit64Or66() async throws {
        let apple = try Apple()
        let missing = await apple.sync()
        #expect(missing.code == 66, "\(missing.output)\(missing.error)")
        let created = await ledger(["init", "--db", apple.db])
        #expect(created.code == 0, "\(created.output)\(created.error)")

        let acceptedAt = Date().addingTimeInterval(3_600).ledgerMilliseconds
        let body = Data(#"{"errorCode":4290000,"errorMessage":"Rate limit exceeded."}"#.utf8)
        apple.api.answerNext(HTTPResponse(statusCode: 429, headers: ["Retry-After": String(acceptedAt)], body: body))
        let limited = await apple.sync()
        #expect(limited.code == 1, "\(limited.output)\(limited.error)")
        let error = try #require(try limited.json()["error"] as? [String: Any])
        #expect(error["name"] as? String == "appStoreAPI.rateLimited" && error["code"] as? Int == 7205)
        #expect(error["retryable"] as? Bool == true && error["retryAfter"] is String)
        #expect(await apple.sync().code == 0)

        let withoutKey = await ledger(["appstore", "notifications-sync"] + apple.ledgerOptions)
        #expect(withoutKey.code == 64 && withoutKey.error.contains("--key"), "\(withoutKey.error)")
        #expect(await apple.sync(["stray"]).code == 64)
        #expect(await ledger(["appstore", "notifications-sync", "--help"]).output.contains("--only-failures"))
        await apple.server.stop()
    }
}
