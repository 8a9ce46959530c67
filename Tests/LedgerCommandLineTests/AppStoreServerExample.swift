import AppStoreAdapter
import FulfillmentLedger
import SQLiteLedgerStore

/// Docs/AppStore.md's "A server that fulfils by ID and finishes on the server", compiled so the
/// example cannot drift from the API. It is built with the tests, never run: it needs Apple.
enum AppStoreServerExample {
    static func fulfil(
        appleRootCAG3: [UInt8], reportedID: String, reportedProduct: String, player: String
    ) async throws -> FulfillmentOutcome {
        let verifier = try SignedDataVerifier(AppStoreVerifierConfiguration(
            rootCertificates: [appleRootCAG3], bundleID: "com.example.game", environment: .production,
            appAppleID: 1234567890))
        let client = try AppStoreServerAPIClient(
            key: try AppStoreAPISigningKey(contentsOfFile: "/etc/game/SubscriptionKey.p8"),
            keyID: "2X9R4HXF34", issuerID: "57246542-96fe-1a63-e053-0824d011072a", verifier: verifier)
        var configuration = LedgerConfiguration.production
        configuration.storeAccountBindings[.appStore] = { AppAccountToken.forPlayer($0) }
        let ledger = try Ledger(
            catalog: try CatalogLoader.load(path: "ProductCatalog.json"), store: try SQLiteLedgerStore(path: "ledger.sqlite"),
            verifier: AppStoreServerTransactionVerifier(client: client),
            finisher: AppStoreServerFinisher(client: client), configuration: configuration)

        // The client reported only a transaction ID and the product it bought.
        let outcome = try await ledger.fulfill(AppStoreServerTransactionVerifier.submission(
            transactionID: reportedID, storeProductID: reportedProduct, playerID: player))
        return outcome
    }
}
