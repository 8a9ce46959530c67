import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTP
import LedgerHTTPServer
import SQLiteLedgerStore
import Synchronization
import Testing

// README.md's examples and the short ones of HTTPServer.md and Integration.md, compiled here
// line for line (between BEGIN and END; a block's `import` lines are at the top of the file;
// `DocumentedBlocks` checks each page shows this code) and run where they do something.

// BEGIN README.md readme-library
/// Apple's root certificate (AppleRootCA-G3.cer, DER) and the app's identity.
func makeVerifier(appleRoot: [UInt8]) throws(AppStoreVerificationError) -> SignedDataVerifier {
    try SignedDataVerifier(
        AppStoreVerifierConfiguration(
            rootCertificates: [appleRoot], bundleID: "com.kibblestreet.td", environment: .production,
            appAppleID: 1_234_567_890))
}

func makeLedger(verifier: SignedDataVerifier) throws(LedgerError) -> Ledger {
    var options = SQLiteLedgerStore.Options()
    options.createIfMissing = false    // made once by `ledger init`
    let store = try SQLiteLedgerStore(path: "/var/lib/game/ledger.sqlite", options: options)
    var configuration = LedgerConfiguration.production
    configuration.accountBinding = { AppAccountToken.forPlayer($0) }    // the appAccountToken the client set
    return try Ledger(
        catalog: try CatalogLoader.load(path: "ProductCatalog.json"), store: store,
        verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier), finisher: AppStoreFinisher(),
        configuration: configuration)
}

/// The client sent a StoreKit 2 transaction's `jwsRepresentation`.
func purchase(jws: String, playerID: String, ledger: Ledger) async -> String {
    guard let submission = AppStoreTransactionVerifier.submission(jws: jws, playerID: playerID) else {
        return "unreadable"
    }
    do {
        switch try await ledger.fulfill(submission) {
        case .granted(let receipt): return "granted \(receipt.record.grants)"           // now finish()
        case .alreadyFulfilled: return "already fulfilled"                               // finish() too
        case .rejected(let rejection): return "rejected: \(rejection.reason.rawValue)"  // never grants
        }
    } catch {
        // An infrastructure failure: nothing was finished, so StoreKit redelivers it; a retry
        // never grants twice.
        return "retry later: \(error.codeName)"
    }
}

/// At shutdown, once no request is in flight: commits the finish marks the store still
/// carries and closes the file. A store let go without it loses those marks, as in a crash.
func stop(ledger: Ledger) async {
    await ledger.store.close()
}
// END README.md readme-library

/// A web framework's request, as README.md's "Over HTTP" reads one.
struct FrameworkRequest {
    var method: String
    var uri: String
    var headerPairs: [(name: String, value: String)]
    var bodyData: Data
}

/// README.md's "Over HTTP": the handler mounted in a framework's catch-all route.
func readmeHTTPRoute(ledger: Ledger, verifier: SignedDataVerifier, request: FrameworkRequest) async -> LedgerHTTPResponse {
    // BEGIN README.md readme-http
    let handler = LedgerHTTPHandler(
        ledger: ledger, appStoreNotifications: AppStoreNotificationProcessor(signedDataVerifier: verifier, ledger: ledger),
        bearerToken: ProcessInfo.processInfo.environment["LEDGER_TOKEN"])
    // In the framework's catch-all route:
    let response = await handler.handle(
        LedgerHTTPRequest(method: request.method, target: request.uri, headers: request.headerPairs, body: request.bodyData))
    // …and write response.status, response.headers and response.body back.
    // END README.md readme-http
    return response
}

/// Docs/HTTPServer.md's first example. Compiled, never run here: it binds port 8080 and
/// returns only on SIGTERM or SIGINT (HTTPServerTests start servers on ephemeral ports).
func httpServerExample() async throws {
    // BEGIN Docs/HTTPServer.md http-server
    let server = LedgerHTTPServer(configuration: .init(host: "127.0.0.1", port: 8080)) { request in
        .text(200, "hello \(request.path)")
    }
    let port = try server.start()        // binds, listens, returns the bound port (0 = ephemeral)
    await server.runUntilSignalled()     // returns after SIGTERM/SIGINT and a graceful shutdown
    // END Docs/HTTPServer.md http-server
    _ = port
}

/// Docs/Integration.md's "Metrics without a metrics library".
func metricsExample(
    catalog: ProductCatalog, store: any LedgerStore, verifier: any TransactionVerifier, finisher: any PlatformFinisher,
    configuration: LedgerConfiguration
) async throws -> (Ledger, String) {
    // BEGIN Docs/Integration.md metrics
    let metrics = LedgerMetrics()
    let ledger = try Ledger(catalog: catalog, store: store, verifier: verifier, finisher: finisher,
                            observer: metrics, configuration: configuration)
    // In the server's GET /metrics handler:
    let body = metrics.prometheusText(pending: try await ledger.pendingFinishGauge())
    // END Docs/Integration.md metrics
    return (ledger, body)
}

/// Docs/Integration.md's change-feed consumer.
func changeFeedExample(
    ledger: Ledger, savedCursor: Int64, push: @Sendable (LedgerEvent) async throws -> Void,
    saveCursor: @Sendable (Int64) throws -> Void
) async throws {
    // BEGIN Docs/Integration.md change-feed
    var cursor = savedCursor                      // 0 the first time
    for try await change in try ledger.changeFeed(after: cursor) {
        try await push(change)                    // to the player's connected client
        cursor = change.sequence
        try saveCursor(cursor)                    // after handling: at-least-once
    }
    // END Docs/Integration.md change-feed
}

@Suite struct DocumentedExamplesTests {
    static let packageRoot = DocumentedBlocks.packageRoot

    static func catalog() throws -> ProductCatalog {
        try CatalogLoader.load(path: packageRoot.appendingPathComponent("ProductCatalog.json").path)
    }

    /// The README's verifier, its account binding and its `purchase` against the App Store
    /// simulator in production: granted once, then already fulfilled; unreadable text refused.
    @Test func theReadmeLibraryExampleGrantsOnce() async throws {
        let store = try AppStoreSimulator(bundleID: "com.kibblestreet.td", environment: .production, appAppleID: 1_234_567_890)
        let verifier = try makeVerifier(appleRoot: store.rootCertificateDER)
        var configuration = LedgerConfiguration.production
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        let ledger = try Ledger(
            catalog: try Self.catalog(), store: InMemoryLedgerStore(),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier), finisher: AppStoreFinisher(),
            configuration: configuration)
        let bought = try store.purchase(
            productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
        let first = await purchase(jws: bought.jws, playerID: "p1", ledger: ledger)
        #expect(first.hasPrefix("granted") && first.contains("gems"), "\(first)")
        #expect(await purchase(jws: bought.jws, playerID: "p1", ledger: ledger) == "already fulfilled")
        #expect(await purchase(jws: bought.jws, playerID: "p2", ledger: ledger) == "rejected: accountMismatch")
        #expect(await purchase(jws: "not a JWS", playerID: "p1", ledger: ledger) == "unreadable")
        #expect(try await ledger.player("p1").balances == ["gems": 100])
        // makeLedger opens a ledger made by `ledger init` at a fixed path: absent here, refused.
        #expect(throws: LedgerError.self) { try makeLedger(verifier: verifier) }
    }

    @Test func theReadmeHTTPRouteAnswersThroughTheHandler() async throws {
        let store = try AppStoreSimulator(bundleID: "com.kibblestreet.td", environment: .production, appAppleID: 1_234_567_890)
        let verifier = try makeVerifier(appleRoot: store.rootCertificateDER)
        let ledger = try Ledger(
            catalog: try Self.catalog(), store: InMemoryLedgerStore(),
            verifier: AppStoreTransactionVerifier(signedDataVerifier: verifier), finisher: AppStoreFinisher(),
            configuration: .production)
        let request = FrameworkRequest(method: "GET", uri: "/players/p1", headerPairs: [], bodyData: Data())
        let response = await readmeHTTPRoute(ledger: ledger, verifier: verifier, request: request)
        let expected = ProcessInfo.processInfo.environment["LEDGER_TOKEN"] == nil ? 200 : 401
        #expect(response.status == expected)
    }

    @Test func theMetricsExampleRendersTheLedgersMetrics() async throws {
        let testStore = TestStore()
        let (ledger, body) = try await metricsExample(
            catalog: try Self.catalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, configuration: LedgerConfiguration(environment: .sandbox))
        #expect(body.contains("ledger_pending_finishes 0"))
        _ = ledger
    }

    /// The change-feed loop pushes a grant and saves its cursor, then ends when its task is
    /// cancelled.
    @Test func theChangeFeedExamplePushesAndSavesTheCursor() async throws {
        let testStore = TestStore()
        let ledger = try Ledger(
            catalog: try Self.catalog(), store: InMemoryLedgerStore(), verifier: testStore.verifier,
            finisher: testStore, configuration: LedgerConfiguration(environment: .sandbox))
        _ = try await ledger.fulfill(testStore.purchase(storeProductID: "test.gems_small", playerID: "p1"))
        let pushed = Mutex<[LedgerEvent]>([])
        let saved = Mutex<Int64>(0)
        let feed = Task {
            try await changeFeedExample(
                ledger: ledger, savedCursor: 0, push: { change in pushed.withLock { $0.append(change) } },
                saveCursor: { cursor in saved.withLock { $0 = cursor } })
        }
        for _ in 0..<100 where pushed.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(50)) }
        feed.cancel()
        try await feed.value
        let changes = pushed.withLock { $0 }
        #expect(changes.first?.kind == .purchaseGranted && changes.first?.playerID == "p1")
        #expect(saved.withLock { $0 } == changes.last?.sequence)
    }
}
