import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator
import Testing

/// Steam.md: a game server's Steam wiring, its startup sync, and an order started.
func steamOrderExample(steam: SteamWebAPIClient, catalog: ProductCatalog, store: any LedgerStore) async throws
    -> SteamOrderProcessor?
{
    // BEGIN Docs/Steam.md steam-order
    let ledger = try Ledger(
        catalog: catalog, store: store,
        verifier: StoreRoutingVerifier([.steam: SteamOrderVerifier(api: steam, environment: .sandbox)]),
        finisher: StoreRoutingFinisher([.steam: SteamFinisher()]),
        configuration: LedgerConfiguration(environment: .sandbox))
    let orders = SteamOrderProcessor(api: steam, ledger: ledger)
    _ = try await SteamReportSync(processor: orders).run()  // at start: grants what Steam charged before a crash

    // The player taps Buy: Steam's overlay opens on their client.
    let request = SteamOrderRequest(
        orderID: 42, steamID: 76_561_197_960_287_930, language: "en", currency: "USD",
        lines: [.init(itemID: 1001, quantity: 1, amount: 99, description: "Pouch of Gems")])
    guard case .started = try await orders.start(request) else { return nil }
    // END Docs/Steam.md steam-order
    return orders
}

/// Steam.md: the player's answer reported.
func steamAuthorizationExample(_ orders: SteamOrderProcessor, authorized: Bool) async throws -> SteamOrderOutcome {
    // BEGIN Docs/Steam.md steam-authorization
    // FinalizeTxn charges the order; then each item is granted once, after Steam confirms it.
    let outcome = try await orders.authorize(orderID: 42, authorized: authorized)
    // END Docs/Steam.md steam-authorization
    return outcome
}

/// Runs Steam.md's examples against the simulated Steam: the order is granted once approved.
@Suite struct SteamExamplesTests {
    @Test func theDocumentedOrderIsGrantedAfterTheOverlay() async throws {
        let simulator = SteamSimulator()
        let noSleep: HTTPRetrySleep = { _ in }
        let steam = try #require(
            SteamWebAPIClient(key: simulator.key, appID: simulator.appID, sandbox: true, transport: simulator, sleep: noSleep))
        let text = try String(contentsOf: DocumentedBlocks.packageRoot.appendingPathComponent("ProductCatalog.json"), encoding: .utf8)
            .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "steam": "1001","#)
        let orders = try #require(
            try await steamOrderExample(steam: steam, catalog: try CatalogLoader.parse(Array(text.utf8)), store: InMemoryLedgerStore()))
        #expect(simulator.approve(42))
        let outcome = try await steamAuthorizationExample(orders, authorized: true)
        #expect(outcome.outcomes.map(\.name) == ["granted"])
    }
}
