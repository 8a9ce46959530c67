import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import StripeAdapter
import StripeSimulator
import Testing

/// `ledger stripe webhook` and `POST /stripe/webhooks` in `ledger serve`, against the simulated
/// Stripe account on a loopback port: a web-shop purchase granted once, a refund taken back, a
/// forged webhook refused, the key and secret read from the environment only.
@Suite struct StripeCommandTests {
    /// The sample catalog with Stripe Prices for gems_small and remove_ads, written to `scratch`.
    static func catalog(in scratch: ScratchDirectory) throws -> String {
        let text = try String(contentsOfFile: CrashAtFaultPointTests.catalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "stripe": "price_gems_small","#)
            .replacingOccurrences(of: #""playStore": "remove_ads","#, with: #""playStore": "remove_ads", "stripe": "price_remove_ads","#)
        return try scratch.write(text, to: "ProductCatalog.json")
    }

    static let environment = ["STRIPE_KEY": "sk_test_simulated", "STRIPE_SECRET": "whsec_rolled,whsec_simulated"]

    static func options(_ server: SimulatedAPIServer) -> [String] {
        ["--stripe-api-key-env", "STRIPE_KEY", "--stripe-webhook-secret-env", "STRIPE_SECRET", "--stripe-api-base", server.baseURL.absoluteString]
    }

    @Test func theCommandGrantsAPaidSessionOnceAndTakesBackARefund() async throws {
        let scratch = try ScratchDirectory()
        let catalog = try Self.catalog(in: scratch)
        let stripe = StripeSimulator()
        let server = try SimulatedAPIServer(api: stripe)
        let db = scratch.path("ledger.sqlite")
        #expect(await ledger(["init", "--db", db]).code == 0)
        let base = ["stripe", "webhook", "--db", db, "--catalog", catalog] + Self.options(server)
        func deliver(_ webhook: StripeSimulator.Webhook, signature: String? = nil) async -> LedgerRun {
            var environment = Self.environment
            environment["LEDGER_STRIPE_SIGNATURE"] = signature ?? webhook.signatureHeader
            return await ledger(base, input: String(decoding: webhook.body, as: UTF8.self), environment: environment)
        }
        let (sessionID, paid) = stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small", quantity: 2)])
        let granted = await deliver(paid)
        #expect(granted.code == 0, "\(granted.output) \(granted.error)")
        let json = try granted.json()
        #expect(json["outcome"] as? String == "fulfilled" && json["sessionID"] as? String == sessionID)
        #expect(((json["fulfillments"] as? [[String: Any]])?.first?["outcome"] as? String) == "granted")
        #expect(try await balances("p1", db: db)["gems"] == 200)
        let again = await deliver(paid)
        let againOutcome = try again.json()["outcome"] as? String
        #expect(again.code == 0 && againOutcome == "duplicate")
        let forged = await deliver(paid, signature: "t=1,v1=" + String(repeating: "0", count: 64))
        let forgedOutcome = try forged.json()["outcome"] as? String
        #expect(forged.code == 77 && forgedOutcome == "unauthenticated")
        let chargeID = try #require(stripe.chargeID(of: sessionID))
        let refund = try #require(stripe.refund(chargeID, amount: 499))
        let refunded = await deliver(refund)
        let refundedOutcome = try refunded.json()["outcome"] as? String
        #expect(refunded.code == 0 && refundedOutcome == "revocations", "\(refunded.output)")
        #expect(try await balances("p1", db: db)["gems"] == 100)
        // The options' rules: both variables, set; the key never on the command line.
        let missingSecret = await ledger(
            ["stripe", "webhook", "--db", db, "--catalog", catalog, "--stripe-api-key-env", "STRIPE_KEY"], environment: Self.environment)
        #expect(missingSecret.code == 64)
        let unset = await ledger(base, environment: ["STRIPE_SECRET": "whsec_x"])
        #expect(unset.code == 64 && unset.error.contains("STRIPE_KEY"))
        await server.stop()
    }

    @Test func serveAppliesStripeWebhooksAndRefusesForgedOnes() async throws {
        let scratch = try ScratchDirectory()
        let catalog = try Self.catalog(in: scratch)
        let stripe = StripeSimulator()
        let server = try SimulatedAPIServer(api: stripe)
        let (_, paid) = stripe.checkout(player: "p1", lines: [.init(price: "price_remove_ads")])
        let body = try scratch.write(String(decoding: paid.body, as: UTF8.self), to: "event.json")
        let db = scratch.path("ledger.sqlite")
        try await onOwnThread {
            let served = try ServeCommandTests.Served(
                db: db, environment: Self.environment, extra: Self.options(server), catalog: catalog)
            let url = "http://127.0.0.1:\(served.port)/stripe/webhooks"
            let post = ["-s", "-X", "POST", "-H", "Content-Type: application/json", "--data-binary", "@\(body)"]
            let granted = try ServeCommandTests.tool("curl", post + ["-H", "Stripe-Signature: \(paid.signatureHeader)", url])
            #expect(granted.contains(#""outcome":"fulfilled""#) && granted.contains(#""outcome":"granted""#), "\(granted)")
            let forged = try ServeCommandTests.tool(
                "curl", post + ["-w", "%{http_code}", "-o", "/dev/null", "-H", "Stripe-Signature: t=1,v1=00", url])
            #expect(forged == "400", "\(forged)")
            #expect(served.terminate().status == 0)
        }
        await server.stop()
        let owned = await ledger(["entitlements", "--db", db, "--player", "p1"])
        #expect(owned.output.contains("remove_ads"), "\(owned.output) \(owned.error)")
    }
}
