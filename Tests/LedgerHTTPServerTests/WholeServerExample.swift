import AppStoreAdapter
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import PlayStoreAdapter
import SQLiteLedgerStore
import Testing

/// The whole game server of Docs/Integration.md ("A whole game server"), compiled here so that
/// the documented code always builds against the library. It is never run: it needs Apple's
/// root, a Play service-account key and the network.
enum WholeServerExample {
    static func main(
        appleRoot: [UInt8], token: String, loadCursor: @escaping @Sendable () -> Int64,
        push: @escaping @Sendable (LedgerEvent) async -> Void, saveCursor: @escaping @Sendable (Int64) -> Void
    ) async throws {
        // BEGIN Integration.md
        let (bundleID, package) = ("com.example.game", "com.example.game")
        var configuration = LedgerConfiguration.production
        configuration.storeAccountBindings[.appStore] = { AppAccountToken.forPlayer($0) }  // appAccountToken is a UUID
        let appStore = try SignedDataVerifier(
            AppStoreVerifierConfiguration(rootCertificates: [appleRoot], bundleID: bundleID, environment: .production))
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
        let server = LedgerHTTPServer(configuration: .init(host: "0.0.0.0", port: 8080)) { await handler.handle($0) }
        _ = try server.start()
        let feed = Task {  // push committed changes to connected clients, at least once
            for try await change in try ledger.changeFeed(after: loadCursor()) { await push(change); saveCursor(change.sequence) }
        }
        _ = try await ledger.recover()
        await server.runUntilSignalled()
        feed.cancel()
        // END Integration.md
    }
}

/// The documented server is this file's, line for line.
struct WholeServerExampleTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test func theDocumentedServerIsTheCompiledOne() throws {
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let compiled = try #require(DocumentedExample.lines(of: source, from: "// BEGIN Integration.md", to: "// END Integration.md"))
        let docs = try String(
            contentsOf: Self.packageRoot.appendingPathComponent("Docs/Integration.md"), encoding: .utf8)
        let documented = try #require(DocumentedExample.lines(of: docs, from: "<!-- whole-server -->", to: "```", skipping: 2))
        #expect(documented == compiled)
        #expect(compiled.count > 20 && compiled.count <= 35)
    }
}
