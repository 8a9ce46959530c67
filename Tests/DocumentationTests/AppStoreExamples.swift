import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import SQLiteLedgerStore

// AppStore.md's examples, compiled line for line (DocumentedBlocks checks the page shows this
// code) and run where they need neither Apple's servers nor files at fixed paths
// (StoreExamplesTests).

// BEGIN Docs/AppStore.md appstore-backend
/// Built once at server start.
struct AppStoreBackend {
    let ledger: Ledger
    let notifications: AppStoreNotificationProcessor

    init(rootPath: String, bundleID: String, appAppleID: Int64, catalogPath: String, ledgerPath: String) throws {
        let root = Array(try Data(contentsOf: URL(fileURLWithPath: rootPath)))   // Apple Root CA - G3, DER
        let verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [root], bundleID: bundleID, environment: .production, appAppleID: appAppleID))
        var configuration = LedgerConfiguration.production
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }   // what the client set at purchase
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        ledger = try Ledger(
            catalog: try CatalogLoader.load(path: catalogPath),
            store: try SQLiteLedgerStore(path: ledgerPath, options: options),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier),
            finisher: AppStoreFinisher { request throws(LedgerError) in
                // Tell the client to finish request.key.transactionID; throw finishFailed to keep it pending.
            },
            configuration: configuration)
        notifications = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
    }

    /// The client posts `jwsRepresentation` after a purchase and for each unfinished transaction.
    func clientPurchase(jws: String, playerID: String) async throws(LedgerError) -> FulfillmentOutcome? {
        guard let submission = AppStoreTransactionVerifier.submission(jws: jws, playerID: playerID) else {
            return nil    // not a signed transaction at all
        }
        return try await ledger.fulfill(submission)   // verifies the JWS before anything is granted
    }

    /// Notifications V2: the POST body is {"signedPayload": "<JWS>"}. Returns the HTTP status.
    func appStoreNotification(body: Data) async -> Int {
        struct Body: Decodable { var signedPayload: String }
        guard let posted = try? JSONDecoder().decode(Body.self, from: body) else { return 400 }
        do throws(LedgerError) {
            if case .rejected(let error) = try await notifications.process(posted.signedPayload) {
                print("notification refused: \(error) (\(error.status.code))")
                return 400
            }
            return 200    // applied once, or already processed
        } catch {
            print("\(error.codeName): \(error)")    // the ledger failed; nothing was stored
            return 500                               // Apple sends the notification again
        }
    }

    /// At shutdown: commits the finish marks the store still carries and closes its file.
    func stop() async { await ledger.store.close() }
}
// END Docs/AppStore.md appstore-backend

/// AppStore.md: a ledger that verifies through the App Store Server API. Compiled, not run: it
/// reads a key at a fixed path and calls Apple.
func appStoreServerAPILedgerExample(
    appleRootCAG3: [UInt8], reportedID: String, reportedProduct: String, player: String
) async throws -> FulfillmentOutcome {
    // BEGIN Docs/AppStore.md appstore-server-api-ledger
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
    // END Docs/AppStore.md appstore-server-api-ledger
    return outcome
}

/// AppStore.md: the notification history sweep. Compiled, not run: it calls Apple.
func appStoreNotificationSweepExample(
    verifier: SignedDataVerifier, ledger: Ledger, client: AppStoreServerAPIClient
) async throws {
    // BEGIN Docs/AppStore.md appstore-notification-sweep
    let processor = AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger)
    let sweep = AppStoreNotificationHistorySweep(client: client, processor: processor)
    let report = try await sweep.run()   // throws(AppStoreNotificationSweepError)
    // END Docs/AppStore.md appstore-notification-sweep
    _ = report
}

/// The simulator as AppStore.md ("Testing with the simulated App Store") describes it. Compiled, not
/// run: it writes root.der into the working folder (the App Store suites run the simulator).
func appStoreSimulatorExample() throws -> (AppStoreSimulator, SignedAppStoreTransaction, SignedAppStoreTransaction) {
    let simulator = try AppStoreSimulator(bundleID: "com.kibblestreet.td", environment: .sandbox)
    try Data(simulator.rootCertificateDER).write(to: URL(fileURLWithPath: "root.der"))
    let gems = try simulator.purchase(
        productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
    let ads = try simulator.purchase(
        productID: "com.kibblestreet.td.remove_ads", appAccountToken: AppAccountToken.forPlayer("p1"),
        type: .nonConsumable)
    // gems.jws, ads.jws; later: simulator.revoke(transactionID:) (or, for 1 of 3 units,
    // simulator.revoke(transactionID: id, type: .refundProrated, percentage: 33_333)), then
    // simulator.notification(type: .refund, transactionID: ads.transactionID), and so on.
    return (simulator, gems, ads)
}
