import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import PlayStoreAdapter
import PlayStoreSimulator

/// A ledger wired to a `PlayStoreSimulator` through the Play verifier and finisher.
struct PlayLedgerSetup {
    static let packageName = "com.kibblestreet.td"
    static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ProductCatalog.json").path

    let clock: ManualClock
    let play: PlayStoreSimulator
    let ledger: Ledger
    /// Signs push tokens as Pub/Sub does; the processor trusts its key set.
    let signer: PubSubPushSigner

    /// The engine's resources (a temporary folder, a PostgreSQL schema), released with the setup.
    private(set) var engineLease: LedgerTestEngineLease?
    /// The lease, for tests that open the engine's database with their own tools.
    var engineLeaseForTests: LedgerTestEngineLease? { engineLease }

    /// A setup on `engine`'s store.
    static func on(
        _ engine: LedgerTestEngine, attributesOutOfAppPurchases: Bool = false, observer: any LedgerObserver = NoObserver(),
        catalog: ProductCatalog? = nil
    ) async throws -> PlayLedgerSetup {
        let (store, lease) = try await engine.makeStore(prefix: "play_tests")
        var setup = try PlayLedgerSetup(
            store: store, attributesOutOfAppPurchases: attributesOutOfAppPurchases, observer: observer, catalog: catalog)
        setup.engineLease = lease
        return setup
    }

    init(
        environment: StoreEnvironment = .sandbox, pageSizeMax: Int = PlayStoreSimulator.defaultPageSizeMax,
        accountBinding: (@Sendable (String) -> String)? = nil, store: any LedgerStore = InMemoryLedgerStore(),
        attributesOutOfAppPurchases: Bool = false, observer: any LedgerObserver = NoObserver(),
        catalog: ProductCatalog? = nil
    ) throws {
        clock = ManualClock()
        play = PlayStoreSimulator(packageName: Self.packageName, clock: clock, pageSizeMax: pageSizeMax)
        signer = try PubSubPushSigner(clock: clock, key: PlayClientTestKey.key)
        var configuration = LedgerConfiguration(environment: environment)
        if let accountBinding { configuration.accountBinding = accountBinding }
        let catalog = try catalog ?? CatalogLoader.load(path: Self.catalogPath)
        var attribution: (@Sendable (String) -> String?)?
        if attributesOutOfAppPurchases {
            attribution = { [configuration] playerID in configuration.accountBinding(for: .playStore, playerID: playerID) }
        }
        ledger = try Ledger(
            catalog: catalog, store: store,
            verifier: PlayPurchaseVerifier(
                api: play, packageName: Self.packageName, environment: environment, clock: clock,
                subscriptionStoreProductIDs: catalog.playSubscriptionStoreProductIDs),
            finisher: PlayFinisher(api: play, packageName: Self.packageName, attributionAccountID: attribution),
            clock: clock, observer: observer,
            configuration: configuration)
    }

    /// Submits a purchase token as the game client would.
    func fulfill(_ token: String, _ productID: String, as player: String, quantity: Int = 1) async throws
        -> FulfillmentOutcome
    {
        try await ledger.fulfill(
            PlayPurchaseVerifier.submission(token: token, storeProductID: productID, playerID: player, quantity: quantity))
    }

    /// Buys and fulfills a product for a player bound by its own ID.
    func buyAndFulfill(_ productID: String, for player: String, quantity: Int = 1) async throws -> String {
        let token = play.purchase(productID: productID, quantity: quantity, accountID: player)
        _ = try await fulfill(token, productID, as: player, quantity: quantity)
        return token
    }

    func key(_ token: String) -> TransactionKey { TransactionKey(store: .playStore, transactionID: token) }

    func gems(_ player: String) async throws -> Int64 { try await ledger.player(player).balances["gems"] ?? 0 }

    func processor(resolver: @escaping @Sendable (String?) -> String? = { $0 }) -> PlayNotificationProcessor {
        PlayNotificationProcessor(
            api: play, packageName: Self.packageName, ledger: ledger, authenticator: signer.authenticator(),
            playerResolver: resolver)
    }

    /// Pushes `body` with a genuine token (or `token`'s forgery) through a fresh processor.
    func push(_ body: Data, token: PubSubPushSigner.Token = PubSubPushSigner.Token()) async throws
        -> PlayNotificationOutcome
    {
        try await processor().process(headers: try signer.headers(token), body: body)
    }

    /// Whether a Pub/Sub message ID is recorded as processed.
    func isRecorded(_ messageID: String) async throws -> Bool {
        try await ledger.store.read { reader throws(LedgerError) in try reader.storeNotification(id: messageID) } != nil
    }

    func sync() -> VoidedPurchasesSync { VoidedPurchasesSync(api: play, packageName: Self.packageName, ledger: ledger) }
}
