import Foundation
import StripeAdapter
import Testing

/// `StripeEvent`: the envelope and the objects the ledger acts on, in the shapes of Stripe's API
/// reference (fields the ledger does not read are left in, as Stripe sends them).
@Suite struct StripeEventTests {
    static func event(type: String, object: String) -> Data {
        Data(
            """
            {"id":"evt_1QdX2aL3b4c5d6e7","object":"event","api_version":"2024-06-20","created":1796000000,
             "data":{"object":\(object),"previous_attributes":{}},"livemode":false,"pending_webhooks":1,
             "request":{"id":null,"idempotency_key":null},"type":"\(type)"}
            """.utf8)
    }

    static let session = """
        {"id":"cs_test_a1b2c3","object":"checkout.session","after_expiration":null,"amount_subtotal":499,"amount_total":499,
         "client_reference_id":"player-42","created":1795999900,"currency":"usd","customer":null,"expires_at":1796086300,
         "livemode":false,"metadata":{"playerID":"player-42"},"mode":"payment","payment_intent":"pi_3Q1",
         "payment_status":"paid","status":"complete","url":null}
        """

    @Test func aCompletedCheckoutSessionDecodes() throws {
        let event = try JSONDecoder().decode(StripeEvent.self, from: Self.event(type: "checkout.session.completed", object: Self.session))
        #expect(event.id == "evt_1QdX2aL3b4c5d6e7" && event.type == .checkoutSessionCompleted && !event.livemode)
        #expect(event.created == 1_796_000_000 && event.apiVersion == "2024-06-20")
        guard case .checkoutSession(let session) = event.object else {
            Issue.record("not a session: \(event.object)")
            return
        }
        #expect(session.id == "cs_test_a1b2c3" && session.clientReferenceID == "player-42")
        #expect(session.paymentStatus == StripeCheckoutSession.paid && session.status == "complete" && session.mode == "payment")
        #expect(session.paymentIntent == "pi_3Q1" && session.amountTotal == 499 && session.metadata?["playerID"] == "player-42")
        #expect(session.lineItems == nil, "a webhook never carries the line items")
    }

    @Test func anExpandedSessionCarriesItsLineItemsAndPaymentIntentObject() throws {
        let expanded = Self.session
            .replacingOccurrences(of: #""payment_intent":"pi_3Q1""#, with: #""payment_intent":{"id":"pi_3Q1","object":"payment_intent"}"#)
            .replacingOccurrences(
                of: #""url":null"#,
                with: """
                    "url":null,"line_items":{"object":"list","has_more":false,"url":"/v1/checkout/sessions/cs_test_a1b2c3/line_items",
                     "data":[{"id":"li_1","object":"item","amount_total":499,"currency":"usd","description":"Pouch of Gems",
                      "price":{"id":"price_gems_small","object":"price","unit_amount":499,"currency":"usd"},"quantity":1},
                      {"id":"li_2","object":"item","amount_total":1000,"currency":"usd","price":"price_coins","quantity":2}]}
                    """)
        let session = try JSONDecoder().decode(StripeCheckoutSession.self, from: Data(expanded.utf8))
        #expect(session.paymentIntent == "pi_3Q1")
        #expect(session.lineItems?.data.map(\.priceID) == ["price_gems_small", "price_coins"])
        #expect(session.lineItems?.data.map(\.quantity) == [1, 2] && session.lineItems?.hasMore == false)
    }

    @Test func chargesRefundsAndDisputesDecode() throws {
        let charge = """
            {"id":"ch_3Q1","object":"charge","amount":1499,"amount_captured":1499,"amount_refunded":499,"currency":"usd",
             "payment_intent":"pi_3Q1","refunded":false,"disputed":false,"livemode":false,"status":"succeeded"}
            """
        let refunded = try JSONDecoder().decode(StripeEvent.self, from: Self.event(type: "charge.refunded", object: charge))
        guard case .charge(let read) = refunded.object else {
            Issue.record("not a charge")
            return
        }
        #expect(read.amountRefunded == 499 && read.amount == 1_499 && read.paymentIntent == "pi_3Q1" && !read.refunded)
        let dispute = """
            {"id":"dp_1","object":"dispute","amount":1499,"charge":"ch_3Q1","currency":"usd","payment_intent":"pi_3Q1",
             "reason":"fraudulent","status":"needs_response","livemode":false}
            """
        let withdrawn = try JSONDecoder().decode(
            StripeEvent.self, from: Self.event(type: "charge.dispute.funds_withdrawn", object: dispute))
        #expect(withdrawn.type == .chargeDisputeFundsWithdrawn)
        guard case .dispute(let disputed) = withdrawn.object else {
            Issue.record("not a dispute")
            return
        }
        #expect(disputed.charge == "ch_3Q1" && disputed.reason == "fraudulent" && disputed.status == "needs_response")
        let refund = #"{"id":"re_1","object":"refund","amount":499,"charge":"ch_3Q1","currency":"usd","payment_intent":"pi_3Q1","status":"failed"}"#
        let updated = try JSONDecoder().decode(StripeEvent.self, from: Self.event(type: "refund.updated", object: refund))
        #expect(updated.object == .refund(try JSONDecoder().decode(StripeRefund.self, from: Data(refund.utf8))))
    }

    @Test func anUnknownObjectOrTypeIsKeptAndANonEventIsRefused() throws {
        let customer = #"{"id":"cus_1","object":"customer"}"#
        let event = try JSONDecoder().decode(StripeEvent.self, from: Self.event(type: "customer.created", object: customer))
        #expect(event.object == .other("customer") && event.type.rawValue == "customer.created")
        // Not an event, or an event missing what the ledger needs: a decoding error, never a guess.
        let notEvent = Data(Self.session.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StripeEvent.self, from: notEvent) }
        let noPaymentStatus = Self.session.replacingOccurrences(of: #""payment_status":"paid","#, with: "")
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StripeEvent.self, from: Self.event(type: "checkout.session.completed", object: noPaymentStatus))
        }
        let fractional = Self.event(type: "charge.refunded", object: #"{"id":"ch","object":"charge","amount":1.5,"amount_refunded":0,"currency":"usd","refunded":false,"livemode":false}"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(StripeEvent.self, from: fractional) }
    }
}
