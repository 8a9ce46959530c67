import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTP
import PlayStoreAdapter
import PlayStoreSimulator
import TestStoreAdapter
import Testing

/// One ledger serving the test store, a simulated App Store and a simulated Google Play, behind
/// a `LedgerHTTPHandler`.
struct LedgerHTTPFixture {
    static let bundleID = "com.kibblestreet.td"
    static let packageName = "com.kibblestreet.td"
    static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ProductCatalog.json").path
    /// One RSA key for every fixture: generating one is slow.
    static let pushKey: RSATestKey = {
        do { return try RSATestKey() } catch { preconditionFailure("cannot generate an RSA test key: \(error)") }
    }()

    let clock = ManualClock()
    let testStore: TestStore
    let appStore: AppStoreSimulator
    let play: PlayStoreSimulator
    let signer: PubSubPushSigner
    let faults = ScriptedFaultInjector()
    let metrics = LedgerMetrics()
    let store = OutageLedgerStore()
    let ledger: Ledger
    let handler: LedgerHTTPHandler
    /// The simulated App Store Server API, with `appStoreServerAPI`.
    let appStoreAPI: AppStoreSimulatedServerAPI?

    /// With `appStoreServerAPI`, App Store purchases are verified through the App Store Server
    /// API (`AppStoreServerTransactionVerifier`, on the simulator's simulated API), so a
    /// transaction ID alone is enough; otherwise offline, from the signed transaction.
    init(
        bearerToken: String? = nil, bodyByteCountMax: Int = LedgerHTTPHandler.defaultBodyByteCountMax,
        appStoreServerAPI: Bool = false, playReconcile: Bool = true
    ) throws {
        testStore = TestStore(clock: clock)
        appStore = try AppStoreSimulator(bundleID: Self.bundleID, environment: .sandbox, clock: clock)
        play = PlayStoreSimulator(packageName: Self.packageName, clock: clock)
        signer = try PubSubPushSigner(clock: clock, key: Self.pushKey)
        let signedData = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [appStore.rootCertificateDER], bundleID: Self.bundleID, environment: .sandbox))
        var configuration = LedgerConfiguration.sandbox
        configuration.accountBinding = { AppAccountToken.forPlayer($0) }
        var appStoreVerifier: any TransactionVerifier = AppStoreTransactionVerifier(signedDataVerifier: signedData)
        var client: AppStoreServerAPIClient?
        if appStoreServerAPI {
            let key = try AppStoreAPITestKey()
            let api = AppStoreSimulatedServerAPI(
                simulator: appStore, key: key, keyID: "KEY123ABCD", issuerID: "issuer", clock: clock)
            let apiClient = try AppStoreServerAPIClient(
                key: try AppStoreAPISigningKey(pem: key.privateKeyPEM), keyID: "KEY123ABCD", issuerID: "issuer",
                verifier: signedData, baseURL: URL(string: "https://api.test"), transport: api, clock: clock)
            appStoreVerifier = AppStoreServerTransactionVerifier(client: apiClient)
            client = apiClient
            appStoreAPI = api
        } else {
            appStoreAPI = nil
        }
        let verifier = StoreRoutingVerifier([
            .test: testStore.verifier, .appStore: appStoreVerifier,
            .playStore: PlayPurchaseVerifier(api: play, packageName: Self.packageName, environment: .sandbox, clock: clock),
        ])
        let finisher = StoreRoutingFinisher([
            .test: testStore, .appStore: AppStoreFinisher(), .playStore: PlayFinisher(api: play, packageName: Self.packageName),
        ])
        ledger = try Ledger(
            catalog: try CatalogLoader.load(path: Self.catalogPath), store: store, verifier: verifier,
            finisher: finisher, source: testStore, clock: clock, faults: faults, observer: metrics,
            configuration: configuration)
        var playProcessor = PlayNotificationProcessor(
            api: play, packageName: Self.packageName, ledger: ledger, authenticator: signer.authenticator(),
            playerResolver: { $0 })
        playProcessor.refundReviewSender = PlayRefundReviewSender(api: play, packageName: Self.packageName, ledger: ledger)
        handler = LedgerHTTPHandler(
            ledger: ledger, appStoreNotifications: AppStoreNotificationProcessor(signedDataVerifier: signedData, ledger: ledger),
            playNotifications: playProcessor, metrics: metrics, bearerToken: bearerToken, bodyByteCountMax: bodyByteCountMax,
            appStoreServerAPI: client,
            playReconciler: playReconcile ? PlayReconciler(api: play, packageName: Self.packageName, ledger: ledger) : nil)
    }

    /// Sends a request through the handler.
    func send(
        _ method: String, _ target: String, json: Any? = nil, body: Data? = nil,
        headers: [(name: String, value: String)] = []
    ) async throws -> LedgerHTTPResponse {
        let bytes = try body ?? json.map { try JSONSerialization.data(withJSONObject: $0) } ?? Data()
        return await handler.handle(LedgerHTTPRequest(method: method, target: target, headers: headers, body: bytes))
    }

    /// A test-store purchase body for `player`.
    static func testPurchase(_ transactionID: String, _ storeProductID: String = "test.gems_small", player: String = "p1")
        -> [String: Any]
    {
        ["store": "test", "transactionID": transactionID, "productID": storeProductID, "playerID": player]
    }
}

extension LedgerHTTPResponse {
    /// The body as a JSON object.
    func object(sourceLocation: SourceLocation = #_sourceLocation) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: body) as? [String: Any], "not a JSON object: \(String(decoding: body, as: UTF8.self))",
            sourceLocation: sourceLocation)
    }

    /// The `outcome` field of the body.
    var outcomeName: String? { (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["outcome"] as? String }

    /// The members of the body's `error` (the one error body: `code`, `name`, `message`, …).
    var error: [String: Any]? { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any])?["error"] as? [String: Any] }

    /// The error's stable name, such as `http.notFound` or `input.invalid`.
    var errorCode: String? { error?["name"] as? String }
}
