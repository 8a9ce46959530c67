import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator
import Testing

/// A ledger selling on Steam through the real client, against the simulated Steam.
struct SteamTestSetup {
    static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ProductCatalog.json").path
    /// The buyer's Steam ID, which is also the player ID (the default resolver and binding).
    static let steamID: UInt64 = 76_561_197_960_287_930
    static var player: String { String(steamID) }
    /// Steam item IDs of the sample products.
    static let gemsSmall: UInt32 = 1001
    static let gemsLarge: UInt32 = 1002
    static let removeAds: UInt32 = 2001

    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_796_000_000))
    let steam: SteamSimulator
    let api: SteamWebAPIClient
    let ledger: Ledger
    let processor: SteamOrderProcessor
    /// The engine's resources (a temporary folder, a PostgreSQL schema), released with the setup.
    var lease: LedgerTestEngineLease?

    /// The sample catalog with Steam item IDs for gems_small, gems_large and remove_ads.
    static func catalog() throws -> ProductCatalog {
        try CatalogLoader.parse(Array(catalogText().utf8))
    }

    /// The sample catalog's text with the Steam item IDs.
    static func catalogText() throws -> String {
        try String(contentsOfFile: catalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "steam": "1001","#)
            .replacingOccurrences(of: #""playStore": "gems_large","#, with: #""playStore": "gems_large", "steam": "1002","#)
            .replacingOccurrences(of: #""playStore": "remove_ads","#, with: #""playStore": "remove_ads", "steam": "2001","#)
    }

    /// A setup on `engine`'s store.
    static func on(_ engine: LedgerTestEngine) async throws -> SteamTestSetup {
        let (store, lease) = try await engine.makeStore(prefix: "steam_tests")
        var setup = try SteamTestSetup(store: store)
        setup.lease = lease
        return setup
    }

    init(store: any LedgerStore = InMemoryLedgerStore(), retryCountMax: Int = 1) throws {
        steam = SteamSimulator(clock: clock)
        let sleep: HTTPRetrySleep = { _ in }
        api = try #require(
            SteamWebAPIClient(
                key: steam.key, appID: steam.appID, sandbox: true, baseURL: URL(string: "https://partner.steam-api.test")!,
                transport: steam, retryPolicy: HTTPRetryPolicy(retryCountMax: retryCountMax), clock: clock, sleep: sleep))
        ledger = try Ledger(
            catalog: try Self.catalog(), store: store,
            verifier: StoreRoutingVerifier([.steam: SteamOrderVerifier(api: api, environment: .sandbox)]),
            finisher: StoreRoutingFinisher([.steam: SteamFinisher()]), clock: clock,
            configuration: LedgerConfiguration(environment: .sandbox))
        processor = SteamOrderProcessor(api: api, ledger: ledger)
    }

    /// An order of `lines` (item, quantity) for the test buyer, at 99 cents a unit.
    static func request(_ orderID: UInt64, _ lines: [(UInt32, Int)], session: SteamOrderRequest.UserSession = .client) -> SteamOrderRequest {
        SteamOrderRequest(
            orderID: orderID, steamID: steamID, language: "en", currency: "USD", userSession: session,
            ipAddress: session == .web ? "203.0.113.7" : nil,
            lines: lines.map { .init(itemID: $0.0, quantity: $0.1, amount: 99 * Int64($0.1), description: "Item \($0.0)") })
    }

    /// Starts an order, the player approves it, and the game server is told: granted.
    func buy(_ orderID: UInt64, _ lines: [(UInt32, Int)]) async throws -> SteamOrderOutcome {
        _ = try await processor.start(Self.request(orderID, lines))
        #expect(steam.approve(orderID))
        return try await processor.authorize(orderID: orderID, authorized: true)
    }

    func gems() async throws -> Int64 { try await ledger.player(Self.player).balances["gems"] ?? 0 }
    func hasRemoveAds() async throws -> Bool {
        try await ledger.player(Self.player).entitlements.contains { $0.entitlementID == "remove_ads" }
    }
    func sync() async throws -> SteamReportSyncReport { try await SteamReportSync(processor: processor).run() }
}
