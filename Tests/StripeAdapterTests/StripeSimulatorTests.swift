import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerEngineTesting
import LedgerHTTPClient
import StripeAdapter
import StripeSimulator
import Testing

/// The whole Stripe path against the simulated account, through the real API client: a web-shop
/// purchase, its redelivery, a partial and a full refund, a dispute lost and won, a delayed
/// payment, an expiry and an outage, each applied once.
@Suite struct StripeSimulatorTests {
    struct Setup {
        let clock = ManualClock(start: Date(timeIntervalSince1970: 1_796_000_000))
        let stripe: StripeSimulator
        let ledger: Ledger
        let processor: StripeWebhookProcessor
        /// The engine's resources (a temporary folder, a PostgreSQL schema), released with the setup.
        var lease: LedgerTestEngineLease?

        /// A setup on `engine`'s store.
        static func on(_ engine: LedgerTestEngine) async throws -> Setup {
            let (store, lease) = try await engine.makeStore(prefix: "stripe_tests")
            var setup = try Setup(store: store)
            setup.lease = lease
            return setup
        }

        init(store: any LedgerStore = InMemoryLedgerStore()) throws {
            stripe = StripeSimulator(clock: clock)
            let sleep: HTTPRetrySleep = { _ in }
            let api = try #require(
                StripeAPIClient(
                    secretKey: stripe.secretKey, baseURL: URL(string: "https://api.stripe.test")!, transport: stripe,
                    retryPolicy: HTTPRetryPolicy(retryCountMax: 1), clock: clock, sleep: sleep))
            ledger = try Ledger(
                catalog: try StripeLedgerSetup.catalog(), store: store,
                verifier: StoreRoutingVerifier([.stripe: StripeCheckoutVerifier(api: api, environment: .sandbox)]),
                finisher: StoreRoutingFinisher([.stripe: StripeFinisher()]), clock: clock,
                configuration: LedgerConfiguration(environment: .sandbox))
            let authenticator = try #require(StripeWebhookAuthenticator(secrets: [stripe.webhookSecret], clock: clock))
            processor = StripeWebhookProcessor(api: api, ledger: ledger, authenticator: authenticator)
        }

        func deliver(_ webhook: StripeSimulator.Webhook?) async throws -> StripeWebhookOutcome {
            let webhook = try #require(webhook)
            return try await processor.process(signatureHeader: webhook.signatureHeader, body: webhook.body)
        }

        func gems(_ player: String) async throws -> Int64 { try await ledger.player(player).balances["gems"] ?? 0 }
    }

    @Test(arguments: LedgerTestEngine.allCases)
    func aPurchaseIsGrantedOnceRefundedUnitByUnitAndDisputed(_ engine: LedgerTestEngine) async throws {
        let setup = try await Setup.on(engine)
        let (sessionID, paid) = setup.stripe.checkout(
            player: "p1", lines: [.init(price: "price_gems_small", quantity: 3), .init(price: "price_remove_ads")])
        guard case .fulfilled(let id, let outcomes) = try await setup.deliver(paid) else {
            Issue.record("not fulfilled")
            return
        }
        #expect(id == sessionID && outcomes.map(\.name) == ["granted", "granted"])
        #expect(try await setup.deliver(paid).httpStatus == 200, "a redelivery is a duplicate")
        #expect(try await setup.gems("p1") == 300)
        let charge = try #require(setup.stripe.chargeID(of: sessionID))
        setup.clock.advance(seconds: 60)
        #expect(try await setup.deliver(setup.stripe.refund(charge, amount: 600)).httpStatus == 200)
        #expect(try await setup.gems("p1") == 200, "6.00 of 4.99 a pack refunds one pack")
        setup.clock.advance(seconds: 60)
        let (disputeID, withdrawn) = try #require(setup.stripe.dispute(charge))
        #expect(try await setup.deliver(withdrawn).httpStatus == 200)
        #expect(try await setup.gems("p1") == 0)
        #expect(try await setup.ledger.entitlements("p1").owned.isEmpty)
        setup.clock.advance(seconds: 60)
        #expect(try await setup.deliver(setup.stripe.winDispute(disputeID)).httpStatus == 200)
        #expect(try await setup.gems("p1") == 200)
        #expect(try await setup.ledger.entitlements("p1").owned.map(\.entitlementID) == ["remove_ads"])
        setup.clock.advance(seconds: 60)
        #expect(try await setup.deliver(setup.stripe.refund(charge, amount: 10_000)).httpStatus == 200)
        #expect(try await setup.gems("p1") == 0)
        #expect(try await setup.ledger.entitlements("p1").owned.isEmpty)
        // Every request carried the key and the pinned version.
        #expect(setup.stripe.requests.allSatisfy { $0.value(forHTTPHeaderField: "Stripe-Version") == StripeAPIClient.apiVersion })
    }

    @Test func delayedPaymentsExpiriesAndOutagesGrantOnlyWhatIsPaid() async throws {
        let setup = try Setup()
        let (delayed, completed) = setup.stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small")], delayed: true)
        #expect(try await setup.deliver(completed) == .nothingToDo(type: .checkoutSessionCompleted))
        setup.stripe.failNext(2)
        let succeeded = try #require(setup.stripe.succeedDelayedPayment(delayed))
        await #expect(throws: LedgerError.self) { try await setup.deliver(succeeded) }
        #expect(try await setup.gems("p1") == 0)
        // Stripe delivers it again once the API is back.
        #expect(try await setup.deliver(succeeded).httpStatus == 200)
        #expect(try await setup.gems("p1") == 100)
        let (failing, _) = setup.stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small")], delayed: true)
        #expect(try await setup.deliver(setup.stripe.failDelayedPayment(failing)) == .nothingToDo(type: .checkoutSessionAsyncPaymentFailed))
        let (_, expired) = setup.stripe.expiredCheckout(player: "p1", lines: [.init(price: "price_gems_small")])
        #expect(try await setup.deliver(expired) == .nothingToDo(type: .checkoutSessionExpired))
        #expect(try await setup.gems("p1") == 100)
        // A webhook signed with another secret is refused before anything is read.
        var forged = setup.stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small")]).webhook
        forged.signatureHeader = StripeWebhookAuthenticator.signatureHeader(
            body: forged.body, secret: "whsec_other", timestampSeconds: 1_796_000_000)
        #expect(try await setup.deliver(forged) == .unauthenticated(.signatureMismatch))
        #expect(try await setup.gems("p1") == 100)
    }

    @Test func aRefundReportedAgainAsRefundUpdatedTakesNothingMore() async throws {
        let setup = try Setup()
        let (sessionID, paid) = setup.stripe.checkout(player: "p1", lines: [.init(price: "price_gems_small", quantity: 3, unitAmount: 300)])
        #expect(try await setup.deliver(paid).httpStatus == 200)
        let charge = try #require(setup.stripe.chargeID(of: sessionID))
        #expect(setup.stripe.refundUpdated(charge) == nil, "nothing refunded yet: no refund to report")
        _ = try await setup.deliver(setup.stripe.refund(charge, amount: 300))
        #expect(try await setup.gems("p1") == 200)
        for _ in 0..<2 {
            guard case .revocations = try await setup.deliver(setup.stripe.refundUpdated(charge)) else {
                Issue.record("refund.updated was not applied as a refund")
                return
            }
            #expect(try await setup.gems("p1") == 200, "the cumulative amount is unchanged: one unit stays taken back")
        }
    }
}
