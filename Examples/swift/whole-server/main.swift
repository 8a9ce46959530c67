// The whole game server of Docs/Integration.md ("A whole game server"), as a program: the lines
// between BEGIN and END are the documented ones, line for line (WholeServerExampleTests checks
// it), and WholeServerExampleTests also starts it against the App Store simulator, serves a
// purchase through it and stops it with SIGTERM.
//
// Run it in a folder holding ProductCatalog.json, play-key.json (a Google service-account key)
// and AppleRootCA-G3.cer (Apple's root, from https://www.apple.com/certificateauthority/):
//
//     LEDGER_TOKEN=s3cret PORT=8080 swift run whole-server-example
//
// Each change the ledger commits is printed as a line `change SEQUENCE KIND PLAYER` (standing in
// for a push to the game's connected clients); the feed's cursor is kept in feed-cursor.
import AppStoreAdapter
import Foundation
import FulfillmentLedger
import LedgerHTTP
import LedgerHTTPServer
import PlayStoreAdapter
import SQLiteLedgerStore

/// Where the change feed's cursor is kept between runs.
let cursorPath = "feed-cursor"

func loadCursor() -> Int64 {
    guard let text = try? String(contentsOfFile: cursorPath, encoding: .utf8) else { return 0 }
    return Int64(text.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
}

func saveCursor(_ sequence: Int64) {
    try? String(sequence).write(toFile: cursorPath, atomically: true, encoding: .utf8)
}

func push(_ change: LedgerEvent) async {
    FileHandle.standardOutput.write(Data("change \(change.sequence) \(change.kind.rawValue) \(change.playerID)\n".utf8))
}

func serve(appleRoot: [UInt8], token: String, port: Int) async throws {
    // BEGIN Docs/Integration.md whole-server
    let (bundleID, package, appAppleID) = ("com.example.game", "com.example.game", Int64(1_234_567_890))
    var configuration = LedgerConfiguration.production
    configuration.storeAccountBindings[.appStore] = { AppAccountToken.forPlayer($0) }  // appAccountToken is a UUID
    let appStore = try SignedDataVerifier(AppStoreVerifierConfiguration(
        rootCertificates: [appleRoot], bundleID: bundleID, environment: .production, appAppleID: appAppleID))
    let play = PlayDeveloperAPIClient(
        tokenSource: try AccessTokenProvider(credentials: try ServiceAccountCredentials(contentsOfFile: "play-key.json")))
    let metrics = LedgerMetrics()
    let ledger = try Ledger(
        catalog: try CatalogLoader.load(path: "ProductCatalog.json"), store: try SQLiteLedgerStore(path: "ledger.sqlite"),
        verifier: StoreRoutingVerifier([
            .appStore: AppStoreTransactionVerifier(signedDataVerifier: appStore),
            .playStore: PlayPurchaseVerifier(api: play, packageName: package, environment: .production),
        ]),
        finisher: StoreRoutingFinisher([.appStore: AppStoreFinisher(), .playStore: PlayFinisher(api: play, packageName: package)]),
        observer: metrics, configuration: configuration)
    let pushes = PubSubPushAuthenticator(
        configuration: PubSubPushAuthentication(audience: "https://game.example.com/playstore/notifications",
            serviceAccountEmail: "rtdn-push@example-project.iam.gserviceaccount.com"),
        keys: GoogleSigningKeys())
    let handler = LedgerHTTPHandler(
        ledger: ledger, appStoreNotifications: AppStoreNotificationProcessor(signedDataVerifier: appStore, ledger: ledger),
        playNotifications: PlayNotificationProcessor(
            api: play, packageName: package, ledger: ledger, authenticator: pushes, playerResolver: { $0 }),
        metrics: metrics, bearerToken: token)
    let server = LedgerHTTPServer(configuration: .init(host: "0.0.0.0", port: port)) { await handler.handle($0) }
    _ = try server.start()
    let feed = Task {  // push committed changes to connected clients, at least once
        for try await change in try ledger.changeFeed(after: loadCursor()) { await push(change); saveCursor(change.sequence) }
    }
    _ = try await ledger.recover()
    await server.runUntilSignalled()
    feed.cancel()
    await ledger.store.close()  // commits carried finish marks; the file closes cleanly
    // END Docs/Integration.md whole-server
}

let environment = ProcessInfo.processInfo.environment
guard let token = environment["LEDGER_TOKEN"], !token.isEmpty else {
    FileHandle.standardError.write(Data("whole-server-example: set LEDGER_TOKEN to the bearer token the game's routes need\n".utf8))
    exit(64)
}
let port = Int(environment["PORT"] ?? "") ?? 8080
let appleRoot = [UInt8](try Data(contentsOf: URL(fileURLWithPath: "AppleRootCA-G3.cer")))
try await serve(appleRoot: appleRoot, token: token, port: port)
