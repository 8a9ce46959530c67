import Foundation
import FulfillmentLedger
import LedgerHTTPClient
import SteamAdapter
import SteamSimulator
import StripeAdapter
import StripeSimulator

/// The demo's two stores beyond the mobile ones: a web shop on Stripe Checkout and Steam's
/// in-game purchases, each against its simulator through the real API client.
extension DemoScript {
    /// The product the demo sells on both, when the catalog maps neither store.
    static let webAndSteamProductID = "gems_small"
    /// The Stripe Price and Steam item the demo maps that product to, for its two steps.
    static let demoStripePrice = "price_demo_gems_small"
    static let demoSteamItem = "1001"
    /// The Steam player: the buyer's Steam ID, which the demo's resolver and binding tie to a player.
    static let steamID: UInt64 = 76_561_197_960_287_930

    /// `catalog`, with `webAndSteamProductID` mapped on Stripe and Steam when no product is yet.
    static func withWebAndSteam(_ catalog: ProductCatalog) -> ProductCatalog {
        let hasStripe = catalog.products.contains { $0.storeProductIDs[.stripe] != nil }
        let hasSteam = catalog.products.contains { $0.storeProductIDs[.steam] != nil }
        guard !hasStripe || !hasSteam else { return catalog }
        return catalog.transformingProducts(marker: "demo-web-steam") { product in
            guard product.id == webAndSteamProductID else { return product }
            var mapped = product
            if !hasStripe { mapped.storeProductIDs[.stripe] = demoStripePrice }
            if !hasSteam { mapped.storeProductIDs[.steam] = demoSteamItem }
            return mapped
        }
    }

    /// The web shop's and Steam's simulators and the real clients over them.
    struct WebAndSteam {
        let stripe: StripeSimulator
        let stripeAPI: StripeAPIClient
        let steam: SteamSimulator
        let steamAPI: SteamWebAPIClient

        init(clock: any LedgerClock) throws {
            let noSleep: HTTPRetrySleep = { _ in }
            stripe = StripeSimulator(clock: clock)
            steam = SteamSimulator(clock: clock)
            guard let stripeAPI = StripeAPIClient(secretKey: stripe.secretKey, transport: stripe, clock: clock, sleep: noSleep),
                let steamAPI = SteamWebAPIClient(key: steam.key, appID: steam.appID, sandbox: true, transport: steam, clock: clock, sleep: noSleep)
            else { throw DemoFailure(message: "the simulated stores' keys were refused") }
            self.stripeAPI = stripeAPI
            self.steamAPI = steamAPI
        }
    }

    /// A web-shop purchase: Stripe's webhook, signed, confirmed with Stripe's API, granted once;
    /// delivered again; then a refund taken back.
    func webShopPurchaseAndRefund() async throws {
        guard let product = ledger.catalog.products.first(where: { $0.storeProductIDs[.stripe] != nil }),
            let price = product.storeProductIDs[.stripe],
            let authenticator = StripeWebhookAuthenticator(secrets: [stores.stripe.webhookSecret])
        else { throw DemoFailure(message: "no Stripe Price to sell") }
        let processor = StripeWebhookProcessor(api: stores.stripeAPI, ledger: ledger, authenticator: authenticator)
        let (sessionID, paid) = stores.stripe.checkout(player: webPlayer, lines: [.init(price: price, quantity: 2)])
        let outcome = try await processor.process(signatureHeader: paid.signatureHeader, body: paid.body)
        guard case .fulfilled(_, let outcomes) = outcome, outcomes.map(\.name) == ["granted"] else {
            throw DemoFailure(message: "a paid Checkout Session did not grant: \(outcome)")
        }
        let again = try await processor.process(signatureHeader: stores.stripe.redelivery(of: paid).signatureHeader, body: paid.body)
        try expect(again.name == "duplicate", "a redelivered webhook is applied once", again)
        let gems = try await ledger.player(webPlayer).balances["gems"] ?? 0
        narrator.step(
            "11. web shop (Stripe Checkout)",
            "\(product.id) x2 as Price \(price)\(price == Self.demoStripePrice ? " (the demo's mapping: the catalog maps no Price)" : ""): signed webhook, session \(sessionID) read again from Stripe's API -> granted; "
                + "delivered again -> duplicate; gems = \(gems)")
        guard let charge = stores.stripe.chargeID(of: sessionID), let refund = stores.stripe.refund(charge, amount: 499) else {
            throw DemoFailure(message: "the simulated charge could not be refunded")
        }
        let refunded = try await processor.process(signatureHeader: refund.signatureHeader, body: refund.body)
        let after = try await ledger.player(webPlayer).balances["gems"] ?? 0
        try expect(refunded.name == "revocations" && after < gems, "a partial refund takes back one unit", refunded)
        narrator.step("   partial refund", "charge.refunded, one unit's price of two -> one unit taken back; gems = \(after)")
    }

    /// A Steam order in Steam's order: InitTxn, the player's approval, FinalizeTxn, then the grant;
    /// a refund read from GetReport taken back.
    func steamPurchaseAndRefund() async throws {
        guard let product = ledger.catalog.products.first(where: { $0.storeProductIDs[.steam] != nil }),
            let item = product.storeProductIDs[.steam].flatMap(UInt32.init)
        else { throw DemoFailure(message: "no Steam item to sell") }
        var orders = SteamOrderProcessor(api: stores.steamAPI, ledger: ledger)
        orders.playerResolver = { [steamPlayer] steamID in steamID == Self.steamID ? steamPlayer : nil }
        let orderID: UInt64 = 42
        let request = SteamOrderRequest(
            orderID: orderID, steamID: Self.steamID, language: "en", currency: "USD",
            lines: [.init(itemID: item, quantity: 1, amount: 99, description: product.name ?? product.id)])
        guard case .started = try await orders.start(request) else { throw DemoFailure(message: "InitTxn was refused") }
        let early = try await orders.authorize(orderID: orderID, authorized: true)
        try expect(early.name == "refused", "FinalizeTxn before the player approved is refused", early)
        stores.steam.approve(orderID)
        let granted = try await orders.authorize(orderID: orderID, authorized: true)
        try expect(granted.outcomes.map(\.name) == ["granted"], "the approved order grants once", granted)
        let gems = try await ledger.player(steamPlayer).balances["gems"] ?? 0
        narrator.step(
            "12. Steam",
            "InitTxn order \(orderID) (\(product.id) as item \(item)\(String(item) == Self.demoSteamItem ? ", the demo's mapping" : "")); a forged \"authorised\" before the overlay -> FinalizeTxn refused (5); "
                + "approved -> FinalizeTxn, QueryTxn says Succeeded -> granted; gems = \(gems)")
        stores.steam.refund(orderID)
        let report = try await SteamReportSync(processor: orders).run()
        let after = try await ledger.player(steamPlayer).balances["gems"] ?? 0
        try expect(report.revocationsRecorded == 1 && after == 0, "a Steam refund from GetReport takes back the item", report)
        narrator.step("   refund (GetReport)", "the report sync reads the order Refunded -> taken back once; gems = \(after)")
    }
}
