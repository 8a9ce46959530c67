import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import SQLiteLedgerStore

// PlayStore.md's examples, compiled line for line (DocumentedBlocks checks the page shows this
// code) and run where they need no call to Google (StoreExamplesTests).

// BEGIN Docs/PlayStore.md play-backend
/// Built once at server start.
struct PlayBackend {
    let ledger: Ledger
    let notifications: PlayNotificationProcessor
    let voidedSync: VoidedPurchasesSync

    init(
        keyPath: String, packageName: String, catalogPath: String, ledgerPath: String,
        pushAudience: String, pushServiceAccount: String
    ) throws {
        let credentials = try ServiceAccountCredentials(contentsOfFile: keyPath)
        let play = PlayDeveloperAPIClient(tokenSource: try AccessTokenProvider(credentials: credentials))
        var configuration = LedgerConfiguration.production
        configuration.accountBinding = { playerID in playerID }   // the client's obfuscatedAccountId
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        ledger = try Ledger(
            catalog: try CatalogLoader.load(path: catalogPath),
            store: try SQLiteLedgerStore(path: ledgerPath, options: options),
            verifier: PlayPurchaseVerifier(api: play, packageName: packageName, environment: .production),
            finisher: PlayFinisher(api: play, packageName: packageName),
            configuration: configuration)
        let authenticator = PubSubPushAuthenticator(
            configuration: PubSubPushAuthentication(audience: pushAudience, serviceAccountEmail: pushServiceAccount),
            keys: GoogleSigningKeys())
        notifications = PlayNotificationProcessor(
            api: play, packageName: packageName, ledger: ledger, authenticator: authenticator,
            playerResolver: { accountID in accountID })   // the inverse of accountBinding; nil if unknown
        voidedSync = VoidedPurchasesSync(api: play, packageName: packageName, ledger: ledger)
    }

    /// The Pub/Sub push endpoint: returns the HTTP status.
    func pubSubPush(headers: [String: String], body: Data) async -> Int {
        do throws(LedgerError) {
            return try await notifications.process(headers: headers, body: body).httpStatus
        } catch {
            return 503   // nothing was recorded: Pub/Sub delivers the message again
        }
    }

    /// At shutdown: commits the finish marks the store still carries and closes its file.
    func stop() async { await ledger.store.close() }
}
// END Docs/PlayStore.md play-backend

/// The push authenticator the PlayStore.md example builds, with fixed values.
func playPushAuthenticatorExample() -> PubSubPushAuthenticator {
    let authenticator = PubSubPushAuthenticator(
        configuration: PubSubPushAuthentication(
            audience: "https://game.example.com/play/rtdn",
            serviceAccountEmail: "rtdn-push@PROJECT_ID.iam.gserviceaccount.com"),
        keys: GoogleSigningKeys())
    return authenticator
}
