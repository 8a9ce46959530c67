import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import PlayStoreAdapter
import PlayStoreSimulator
import SQLiteLedgerStore
import Testing

/// The store pages' examples run as a game server would: the App Store backend against the
/// simulator in production, the Play backend up to Google's door (a push without its token is
/// refused before anything is asked of Google).
@Suite struct StoreExamplesTests {
    static let catalogPath = DocumentedBlocks.packageRoot.appendingPathComponent("ProductCatalog.json").path

    /// A ledger made once, as `ledger init` would, so the examples open it with createIfMissing off.
    static func initializedLedger(in scratch: ScratchDirectory) async throws -> String {
        let path = scratch.path("ledger.sqlite")
        await (try SQLiteLedgerStore(path: path)).close()
        return path
    }

    @Test func theAppStoreBackendGrantsOnceAndRefusesABadNotification() async throws {
        let scratch = try ScratchDirectory()
        let store = try AppStoreSimulator(bundleID: "com.kibblestreet.td", environment: .production, appAppleID: 1_234_567_890)
        let rootPath = scratch.path("AppleRootCA-G3.cer")
        try Data(store.rootCertificateDER).write(to: URL(fileURLWithPath: rootPath))
        let ledgerPath = try await Self.initializedLedger(in: scratch)
        let backend = try AppStoreBackend(
            rootPath: rootPath, bundleID: "com.kibblestreet.td", appAppleID: 1_234_567_890, catalogPath: Self.catalogPath,
            ledgerPath: ledgerPath)
        let bought = try store.purchase(productID: "com.kibblestreet.td.gems.small", appAccountToken: AppAccountToken.forPlayer("p1"))
        #expect(try await backend.clientPurchase(jws: bought.jws, playerID: "p1")?.name == "granted")
        #expect(try await backend.clientPurchase(jws: bought.jws, playerID: "p1")?.name == "alreadyFulfilled")
        #expect(try await backend.clientPurchase(jws: "not a JWS", playerID: "p1") == nil)
        #expect(await backend.appStoreNotification(body: Data("{}".utf8)) == 400)
        #expect(await backend.appStoreNotification(body: Data(#"{"signedPayload":"a.b.c"}"#.utf8)) == 400)
        #expect(try await backend.ledger.player("p1").balances == ["gems": 100])
        await backend.stop()
    }

    @Test func thePlayBackendStartsAndRefusesAPushWithoutItsToken() async throws {
        let scratch = try ScratchDirectory()
        let key: [String: String] = [
            "type": "service_account", "project_id": "example-project", "private_key_id": "k1",
            "private_key": try RSATestKey().privateKeyPEM(), "client_email": "ledger@example-project.iam.gserviceaccount.com",
            "token_uri": "https://oauth2.googleapis.com/token",
        ]
        let keyPath = scratch.path("play-service-account.json")
        try JSONSerialization.data(withJSONObject: key).write(to: URL(fileURLWithPath: keyPath))
        let ledgerPath = try await Self.initializedLedger(in: scratch)
        let backend = try PlayBackend(
            keyPath: keyPath, packageName: "com.kibblestreet.td", catalogPath: Self.catalogPath,
            ledgerPath: ledgerPath, pushAudience: "https://game.example.com/play/rtdn",
            pushServiceAccount: "rtdn-push@example-project.iam.gserviceaccount.com")
        #expect(await backend.pubSubPush(headers: [:], body: Data("{}".utf8)) == 401)
        #expect(try await backend.ledger.player("p1").history.isEmpty)
        _ = playPushAuthenticatorExample()
        await backend.stop()
    }
}

/// Architecture.md's, Concepts.md's and Catalog.md's examples run against a test-store ledger.
@Suite struct ArchitectureExamplesTests {
    static func ledger() throws -> Ledger {
        let testStore = TestStore()
        return try Ledger(
            catalog: try CatalogLoader.load(path: StoreExamplesTests.catalogPath), store: InMemoryLedgerStore(),
            verifier: testStore.verifier, finisher: testStore, configuration: .sandbox)
    }

    @Test func theConfigurationExampleSetsWhatItSays() {
        let configuration = configurationExample()
        #expect(configuration.ownershipTransfer == .nonConsumablesOnRestore)
        #expect(configuration.finishWarningAgeSeconds == 43_200)
        #expect(configuration.environment == .production)
    }

    @Test func theRevocationEligibilityAndOperationExamplesRun() async throws {
        let ledger = try Self.ledger()
        try await revocationExample(ledger: ledger, signedDate: Date())
        try await eligibilityExample(ledger: ledger, playerID: "p1")
        let outcome = try await operationExample(ledger: ledger)
        guard case .rejected(let reason, _) = outcome else {
            Issue.record("a spend from an empty balance is rejected, not \(outcome)")
            return
        }
        #expect(reason == .insufficientFunds)
        _ = conformanceClassifierExample()
    }

    @Test func theCatalogReloadExampleKeepsACatalogInForce() throws {
        let ledger = try Self.ledger()
        let before = ledger.catalog.versionHash
        catalogReloadExample(ledger: ledger)
        #expect(ledger.catalog.versionHash == before, "the same file, or refused: either way the same catalog")
    }
}
