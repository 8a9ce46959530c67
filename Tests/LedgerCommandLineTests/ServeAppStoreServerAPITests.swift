import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedgerTesting
import FulfillmentLedger
import Testing

/// `ledger serve --app-store-key …`: a purchase reported by transaction ID alone is fetched from
/// the App Store Server API, granted once and finished on Apple's server; the reconcile and the
/// account routes ask the same API. Apple is played by the
/// simulated API on a loopback HTTP server of this process (`AppStoreSimulatedServer`).
struct ServeAppStoreServerAPITests {
    static let keyID = "KEY123ABCD"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"
    static let product = "com.kibblestreet.td.gems.small"

    @Test func aPurchaseByTransactionIDIsFetchedGrantedOnceAndFinishedOnApplesServer() async throws {
        let scratch = try ScratchDirectory()
        let (simulator, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let key = try AppStoreAPITestKey()
        let keyFile = try scratch.write(key.privateKeyPEM, to: "SubscriptionKey.p8")
        let api = AppStoreSimulatedServerAPI(
            simulator: simulator, key: key, keyID: Self.keyID, issuerID: Self.issuerID, clock: SystemClock())
        let apple = try AppStoreSimulatedServer(api: api)
        let purchase = try simulator.purchase(productID: Self.product, appAccountToken: AppAccountToken.forPlayer("p1"))
        let body = try JSONSerialization.data(withJSONObject: [
            "store": "appStore", "playerID": "p1", "transactionID": purchase.transactionID, "storeProductID": Self.product,
        ])
        let bodyFile = try scratch.write(String(decoding: body, as: UTF8.self), to: "purchase.json")
        let extra = [
            "--root", root, "--bundle-id", AppStoreCommandTests.bundleID, "--app-store-environment", "Sandbox",
            "--store-account-binding", "appStore=app-account-token", "--app-store-key", keyFile, "--app-store-key-id",
            Self.keyID, "--app-store-issuer", Self.issuerID, "--app-store-api-base", apple.baseURL.absoluteString,
        ]
        let db = scratch.path("ledger.sqlite")
        try await onOwnThread {
            let served = try ServeCommandTests.Served(db: db, extra: extra)
            let post = ["-s", "-X", "POST", "--data-binary", "@\(bodyFile)", "http://127.0.0.1:\(served.port)/purchases"]
            let granted = try ServeCommandTests.tool("curl", post)
            #expect(granted.contains(#""outcome":"granted""#) && granted.contains(#""finished":true"#), "\(granted)")
            #expect(try ServeCommandTests.tool("curl", post).contains(#""outcome":"alreadyFulfilled""#))
            // The account routes and the reconcile reach the same API.
            let base = "http://127.0.0.1:\(served.port)"
            let reconcile = try ServeCommandTests.tool(
                "curl", ["-s", "-X", "POST", "--data-binary", #"{"store":"appStore"}"#, "\(base)/players/p1/reconcile"])
            #expect(reconcile.contains(#""isClean":true"#) && reconcile.contains(#""transactionsRead":1"#), "\(reconcile)")
            let account = try ServeCommandTests.tool("curl", ["-s", "\(base)/appstore/app-transactions/\(purchase.transactionID)"])
            #expect(account.contains(#""found":true"#) && account.contains("appTransactionId"), "\(account)")
            #expect(served.terminate().status == 0)
        }
        await apple.stop()
        #expect(api.finishedTransactionIDs == [purchase.transactionID])
    }

    @Test func serverAPIOptionsNeedEachOther() async throws {
        let scratch = try ScratchDirectory()
        let common = ["serve", "--db", scratch.path("ledger.sqlite"), "--catalog", CrashAtFaultPointTests.catalogPath]
        #expect(await ledger(common + ["--app-store-key-id", "K"]).code == 64)
        #expect(await ledger(common + ["--app-store-key", scratch.path("none.p8"), "--app-store-key-id", "K"]).code == 64)
        let (_, root) = try AppStoreCommandTests.simulatedStore(in: scratch)
        let apple = ["--root", root, "--bundle-id", "b", "--app-store-environment", "Sandbox"]
        let missing = await ledger(
            common + apple + ["--app-store-key", scratch.path("none.p8"), "--app-store-key-id", "K", "--app-store-issuer", "I"])
        #expect(missing.code == 64 && missing.error.contains("App Store Server API key"), "\(missing.error)")
    }
}
