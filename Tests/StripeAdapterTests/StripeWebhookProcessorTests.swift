import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import StripeAdapter
import Testing

/// `StripeWebhookProcessor` with `StripeCheckoutVerifier`: a paid Checkout Session granted once
/// per line item, confirmed with Stripe's API; redeliveries, delayed payments, expiries, forged
/// signatures, missing players and outages. Refunds and disputes: `StripeRefundTests`.
@Suite struct StripeWebhookProcessorTests {
    static let lines = [InMemoryStripe.Line(id: "li_1", price: "price_gems_small", quantity: 3), .init(id: "li_2", price: "price_remove_ads", quantity: 1)]

    @Test func aPaidSessionGrantsEachLineItemOnceWhateverEventSaysSo() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_test_1", player: "p1", lines: Self.lines)
        let completed = StripeLedgerSetup.event("evt_1", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_test_1"))
        let outcome = try await setup.deliver(completed)
        guard case .fulfilled(let sessionID, let outcomes) = outcome else {
            Issue.record("\(outcome)")
            return
        }
        #expect(sessionID == "cs_test_1" && outcomes.map(\.name) == ["granted", "granted"] && outcome.httpStatus == 200)
        #expect(outcomes.first?.receipt?.record.key.transactionID == "cs_test_1/li_1")
        #expect(outcomes.first?.receipt?.record.storeOrderID == "pi_1", "refunds find the purchase by its PaymentIntent")
        #expect(try await setup.gems("p1") == 300)
        #expect(try await setup.ledger.player("p1").entitlements.map(\.entitlementID).contains("remove_ads"))
        // The same event again, and another event about the same session.
        guard case .duplicate(let seen) = try await setup.deliver(completed) else {
            Issue.record("a redelivered event was processed again")
            return
        }
        #expect(seen.outcome == "fulfilled granted,granted")
        let again = try await setup.deliver(
            StripeLedgerSetup.event("evt_2", type: "checkout.session.async_payment_succeeded", object: StripeLedgerSetup.pushedSession("cs_test_1")))
        if case .fulfilled(_, let outcomes) = again {
            #expect(outcomes.map(\.name) == ["alreadyFulfilled", "alreadyFulfilled"])
        } else {
            Issue.record("\(again)")
        }
        #expect(try await setup.gems("p1") == 300)
    }

    @Test func aDelayedPaymentGrantsWhenItSucceedsAndNeverWhenItFailsOrExpires() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_test_2", player: "p1", lines: [Self.lines[0]], paymentStatus: "unpaid")
        let unpaid = try await setup.deliver(
            StripeLedgerSetup.event("evt_3", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_test_2", paymentStatus: "unpaid")))
        #expect(unpaid == .nothingToDo(type: .checkoutSessionCompleted))
        #expect(try await setup.gems("p1") == 0)
        // The webhook's copy says paid; Stripe's API says unpaid: the API wins.
        let lying = try await setup.deliver(
            StripeLedgerSetup.event("evt_4", type: "checkout.session.async_payment_succeeded", object: StripeLedgerSetup.pushedSession("cs_test_2")))
        #expect(lying == .nothingToDo(type: .checkoutSessionAsyncPaymentSucceeded))
        setup.stripe.put("cs_test_2", player: "p1", lines: [Self.lines[0]])
        let paid = try await setup.deliver(
            StripeLedgerSetup.event("evt_5", type: "checkout.session.async_payment_succeeded", object: StripeLedgerSetup.pushedSession("cs_test_2")))
        let gemsp1 = try await setup.gems("p1")
        #expect(paid.httpStatus == 200 && gemsp1 == 300)
        for (id, type) in [("evt_6", "checkout.session.async_payment_failed"), ("evt_7", "checkout.session.expired"), ("evt_8", "customer.created")] {
            let outcome = try await setup.deliver(StripeLedgerSetup.event(id, type: type, object: StripeLedgerSetup.pushedSession("cs_test_9")))
            #expect(outcome == .nothingToDo(type: StripeEventType(rawValue: type)), "\(type)")
            #expect(try await setup.ledger.storeNotification(id: id) != nil, "\(type) is recorded")
        }
    }

    @Test func forgedUnknownUnassignedAndUnsupportedEventsGrantNothing() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_test_3", player: nil, lines: [Self.lines[0]])
        let body = StripeLedgerSetup.event("evt_9", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_test_3"))
        let forged = try await setup.deliver(body, secret: "whsec_attacker")
        #expect(forged == .unauthenticated(.signatureMismatch) && forged.httpStatus == 400)
        #expect(try await setup.ledger.storeNotification(id: "evt_9") == nil, "a forgery records nothing")
        #expect(try await setup.deliver(body) == .unassigned(sessionID: "cs_test_3"))
        #expect(try await setup.ledger.storeNotification(id: "evt_9")?.outcome == "unassigned cs_test_3")
        // The player from the session's metadata when client_reference_id is not set.
        setup.stripe.put("cs_test_4", player: nil, lines: [Self.lines[0]], metadata: ["playerID": "p2"])
        let byMetadata = try await setup.deliver(
            StripeLedgerSetup.event("evt_10", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_test_4")))
        let gemsp2 = try await setup.gems("p2")
        #expect(byMetadata.httpStatus == 200 && gemsp2 == 300)
        let unknown = try await setup.deliver(
            StripeLedgerSetup.event("evt_11", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_nope")))
        #expect(unknown == .rejected("Stripe has no Checkout Session cs_nope"))
        let refund = try await setup.deliver(
            StripeLedgerSetup.event("evt_12", type: "charge.refunded", object: #"{"id":"ch_1","object":"charge","amount":1,"amount_refunded":1,"currency":"usd","refunded":true,"livemode":false}"#))
        #expect(refund == .rejected("Stripe has no charge ch_1") && refund.httpStatus == 400, "the API is asked, not the webhook")
        #expect(try await setup.ledger.storeNotification(id: "evt_12") == nil)
        let garbage = try await setup.deliver(Array(#"{"id":"evt_13","object":"customer"}"#.utf8))
        #expect(garbage.httpStatus == 400)
        #expect(try await setup.gems("p1") == 0)
    }

    @Test func anOutageThrowsAndRecordsNothingSoStripeDeliversAgain() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_test_5", player: "p1", lines: [Self.lines[0]])
        let body = StripeLedgerSetup.event("evt_14", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_test_5"))
        setup.stripe.failNext(1)
        await #expect(throws: LedgerError.self) { try await setup.deliver(body) }
        #expect(try await setup.ledger.storeNotification(id: "evt_14") == nil)
        // The verifier's own read fails next: the grant throws, nothing is recorded either.
        setup.stripe.failNext(0)
        let outcome = try await setup.deliver(body)
        let gemsp1 = try await setup.gems("p1")
        #expect(outcome.httpStatus == 200 && gemsp1 == 300)
    }

    @Test func theVerifierChecksTheLineItemModeEnvironmentAndPlayer() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_q", player: "p1", lines: [.init(id: "li_1", price: "price_gems_small", quantity: 0)])
        setup.stripe.put("cs_sub", player: "p1", lines: [.init(id: "li_1", price: "price_gems_small", quantity: 1)], mode: "subscription")
        setup.stripe.put("cs_live", player: "p1", lines: [.init(id: "li_1", price: "price_gems_small", quantity: 1)], livemode: true)
        setup.stripe.put("cs_p2", player: "p2", lines: [.init(id: "li_1", price: "price_gems_small", quantity: 1)])
        func submit(_ key: String, quantity: Int = 1, player: String = "p1") async throws -> FulfillmentOutcome {
            try await setup.ledger.fulfill(
                TransactionSubmission(
                    store: .stripe, transactionID: key, storeProductID: "price_gems_small", playerID: player, quantity: quantity,
                    payload: String(key.prefix { $0 != "/" })))
        }
        #expect(try await submit("cs_q/li_1", quantity: 0).rejection != nil)
        #expect(try await submit("cs_sub/li_1").rejection?.reason == .unsupportedProductType)
        #expect(try await submit("cs_live/li_1").rejection?.reason == .wrongEnvironment)
        #expect(try await submit("cs_p2/li_1").rejection != nil, "a session the game set for p2 is not p1's")
        #expect(try await submit("cs_p2").rejection?.reason == .unverified, "a key without its line item")
        #expect(try await submit("cs_p2/li_9", player: "p2").rejection?.reason == .unverified)
        #expect(try await submit("cs_p2/li_1", player: "p2").name == "granted")
        let gemsp2 = try await setup.gems("p2")
        let gemsp1 = try await setup.gems("p1")
        #expect(gemsp1 == 0 && gemsp2 == 100)
    }
}

extension StripeWebhookOutcome {
    static func == (lhs: StripeWebhookOutcome, rhs: StripeWebhookOutcome) -> Bool {
        switch (lhs, rhs) {
        case (.unauthenticated(let left), .unauthenticated(let right)): left == right
        case (.rejected(let left), .rejected(let right)): left == right
        case (.unassigned(let left), .unassigned(let right)): left == right
        case (.nothingToDo(let left), .nothingToDo(let right)): left == right
        default: false
        }
    }
}
