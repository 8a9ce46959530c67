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
        // The service account's JSON key, as downloaded from Google Cloud.
        let credentials = try ServiceAccountCredentials(contentsOfFile: keyPath)
        let play = PlayDeveloperAPIClient(tokenSource: try AccessTokenProvider(credentials: credentials))

        var configuration = LedgerConfiguration.production
        // What the client passed as obfuscatedAccountId at purchase (the default is the player ID).
        configuration.accountBinding = { playerID in playerID }
        var options = SQLiteLedgerStore.Options()
        options.createIfMissing = false
        ledger = try Ledger(
            catalog: try CatalogLoader.load(path: catalogPath),
            store: try SQLiteLedgerStore(path: ledgerPath, options: options),
            verifier: PlayPurchaseVerifier(api: play, packageName: packageName, environment: .production),
            finisher: PlayFinisher(api: play, packageName: packageName),
            configuration: configuration)
        // The push subscription's --push-auth-token-audience and --push-auth-service-account.
        let authenticator = PubSubPushAuthenticator(
            configuration: PubSubPushAuthentication(audience: pushAudience, serviceAccountEmail: pushServiceAccount),
            keys: GoogleSigningKeys())
        notifications = PlayNotificationProcessor(
            api: play, packageName: packageName, ledger: ledger, authenticator: authenticator,
            playerResolver: { accountID in accountID })   // the inverse of accountBinding; nil if unknown
        voidedSync = VoidedPurchasesSync(api: play, packageName: packageName, ledger: ledger)
    }

    /// The client posts the purchase token, product ID and quantity after a purchase (and for
    /// every unconsumed or unacknowledged purchase `queryPurchasesAsync` returns at launch).
    func clientPurchase(token: String, storeProductID: String, quantity: Int, playerID: String)
        async throws(LedgerError) -> FulfillmentOutcome
    {
        let submission = PlayPurchaseVerifier.submission(
            token: token, storeProductID: storeProductID, playerID: playerID, quantity: quantity)
        return try await ledger.fulfill(submission)   // asks Google before anything is granted
    }

    /// The Pub/Sub push endpoint for Real-time Developer Notifications: the request's headers
    /// and body in, the HTTP status out (2xx acknowledges the message, anything else has it redelivered).
    func pubSubPush(headers: [String: String], body: Data) async -> Int {
        do throws(LedgerError) {
            let outcome = try await notifications.process(headers: headers, body: body)
            switch outcome {
            case .unauthenticated(let failure):
                print("RTDN push refused: \(failure)")   // forged, or the subscription's settings differ
            case .rejected(let rejection):
                print("RTDN refused: \(rejection)")      // malformed or another app's: do not redeliver
            case .unconfirmed(let record):
                print("RTDN void not confirmed by Google yet: \(record.outcome)")   // the sync applies it
            case .alreadyProcessed, .logged, .unresolved:
                break
            case .fulfillment(let result):
                print("RTDN purchase: \(result.name)")
            case .subscription(let effect):
                print("RTDN subscription: \(effect)")   // a period granted, the chain's state changed
            case .revocation(let result, let check):
                print("RTDN void: \(result); refund check: \(check.map(String.init(describing:)) ?? "none")")
            case .refundReview(let review, _):
                print("RTDN chargeback review: \(review.summary)")   // answered once, within 24 hours
            }
            return outcome.httpStatus   // 401/403 when unauthenticated, else 204
        } catch {
            print("\(error.codeName): \(error)")   // Google or the ledger failed; nothing was recorded
            return 503                              // Pub/Sub delivers the message again
        }
    }

    /// Run periodically (every few minutes): retries pending consumes and acknowledgements,
    /// and pulls voided purchases that no notification reported.
    func housekeeping() async {
        do throws(LedgerError) {
            let recovery = try await ledger.recover()
            for (key, error) in recovery.finishesFailed { print("finish still pending: \(key): \(error)") }
            let report = try await voidedSync.run()
            print("voided: \(report.voidedSeen) seen, \(report.recorded) recorded, truncated \(report.truncated)")
            for (token, check) in report.refundChecks { print("refund check \(token.prefix(12))…: \(check)") }
        } catch {
            print("\(error.codeName): \(error)")
        }
    }
}
// END Docs/PlayStore.md play-backend

/// PlayStore.md: the push authenticator.
func playPushAuthenticatorExample() -> PubSubPushAuthenticator {
    // BEGIN Docs/PlayStore.md play-push-authenticator
    let authenticator = PubSubPushAuthenticator(
        configuration: PubSubPushAuthentication(
            audience: "https://game.example.com/play/rtdn",
            serviceAccountEmail: "rtdn-push@PROJECT_ID.iam.gserviceaccount.com"),
        keys: GoogleSigningKeys())
    // END Docs/PlayStore.md play-push-authenticator
    return authenticator
}

/// PlayStore.md: the HTTPS client. Compiled, not run: it reads a key file from the working
/// folder (StoreExamplesTests reads one through PlayBackend).
func playClientExample() throws -> PlayDeveloperAPIClient {
    // BEGIN Docs/PlayStore.md play-client
    let credentials = try ServiceAccountCredentials(contentsOfFile: "play-service-account.json")
    let play = PlayDeveloperAPIClient(tokenSource: try AccessTokenProvider(credentials: credentials))
    // END Docs/PlayStore.md play-client
    return play
}
