import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import StripeAdapter
import Testing

/// Stripe refunds and disputes: the cumulative `amount_refunded` taken back unit by unit, once,
/// whatever events report it; a dispute's funds withdrawn take everything back, reinstated give it
/// back and keep what was refunded; all confirmed with Stripe's API.
@Suite struct StripeRefundTests {
    /// A session of 3 × gems_small (4.99 each) and remove_ads (4.99), granted to p1.
    static func granted() async throws -> StripeLedgerSetup {
        let setup = try StripeLedgerSetup()
        setup.stripe.put(
            "cs_r", player: "p1",
            lines: [.init(id: "li_g", price: "price_gems_small", quantity: 3), .init(id: "li_a", price: "price_remove_ads", quantity: 1)])
        setup.stripe.putCharge("ch_r", paymentIntent: "pi_1", amount: 1_996, refunded: 0)
        let paid = try await setup.deliver(
            StripeLedgerSetup.event("evt_paid", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_r")))
        #expect(paid.httpStatus == 200)
        return setup
    }

    static func chargeEvent(_ id: String, created: Int64 = 1_796_000_060) -> [UInt8] {
        Array(
            #"{"id":"\#(id)","object":"event","created":\#(created),"livemode":false,"type":"charge.refunded","data":{"object":{"id":"ch_r","object":"charge","amount":1996,"amount_refunded":0,"currency":"usd","payment_intent":"pi_1","refunded":false,"livemode":false}}}"#
                .utf8)
    }

    static func owns(_ setup: StripeLedgerSetup, _ entitlement: String) async throws -> Bool {
        try await setup.ledger.entitlements("p1").owned.contains { $0.entitlementID == entitlement }
    }

    @Test func theMappingTakesWholeUnitsLineByLine() {
        func line(_ id: String, _ quantity: Int, _ total: Int64) -> StripeLineItem {
            try! JSONDecoder().decode(
                StripeLineItem.self, from: Data(#"{"id":"\#(id)","price":"p","quantity":\#(quantity),"amount_total":\#(total)}"#.utf8))
        }
        let lines = [line("a", 3, 1_497), line("b", 1, 499)]
        func units(_ amount: Int64) -> [Int] { StripeRefundMapping.units(amountRefunded: amount, of: lines).map(\.units) }
        #expect(units(0) == [0, 0] && units(498) == [0, 0] && units(499) == [1, 0] && units(998) == [2, 0])
        #expect(units(1_497) == [3, 0] && units(1_995) == [3, 0] && units(1_996) == [3, 1] && units(99_999) == [3, 1])
        // A discounted line's unit price is its own: 10.00 for 3 rounds up to 3.34 a unit.
        #expect(StripeRefundMapping.units(amountRefunded: 334, of: [line("c", 3, 1_000)]).map(\.units) == [1])
        #expect(StripeRefundMapping.units(amountRefunded: 333, of: [line("c", 3, 1_000)]).map(\.units) == [0])
        // A free line goes only with everything else.
        #expect(StripeRefundMapping.units(amountRefunded: 499, of: [line("b", 1, 499), line("f", 1, 0)]).map(\.units) == [1, 1])
        #expect(StripeRefundMapping.units(amountRefunded: 100, of: [line("b", 1, 499), line("f", 1, 0)]).map(\.units) == [0, 0])
    }

    @Test func aCumulativeRefundIsTakenBackOnceWhateverEventReportsIt() async throws {
        let setup = try await Self.granted()
        #expect(try await setup.gems("p1") == 300)
        // One gem pack refunded; the webhook's copy of the charge says nothing: Stripe's does.
        setup.stripe.putCharge("ch_r", paymentIntent: "pi_1", amount: 1_996, refunded: 499)
        let first = try await setup.deliver(Self.chargeEvent("evt_ref1"))
        guard case .revocations(let chargeID, let outcomes) = first else {
            Issue.record("\(first)")
            return
        }
        #expect(chargeID == "ch_r" && outcomes.count == 1)
        #expect(try await setup.gems("p1") == 200)
        // The same state reported by refund.updated, and the event again: nothing more.
        let updated = Array(
            #"{"id":"evt_ref2","object":"event","created":1796000070,"livemode":false,"type":"refund.updated","data":{"object":{"id":"re_1","object":"refund","amount":499,"charge":"ch_r","currency":"usd","payment_intent":"pi_1","status":"succeeded"}}}"#
                .utf8)
        #expect(try await setup.deliver(updated).httpStatus == 200)
        guard case .duplicate = try await setup.deliver(Self.chargeEvent("evt_ref1")) else {
            Issue.record("a redelivered refund was processed again")
            return
        }
        #expect(try await setup.gems("p1") == 200)
        // Everything refunded: the rest of the gems and the entitlement.
        setup.stripe.putCharge("ch_r", paymentIntent: "pi_1", amount: 1_996, refunded: 1_996)
        #expect(try await setup.deliver(Self.chargeEvent("evt_ref3", created: 1_796_000_080)).httpStatus == 200)
        #expect(try await setup.gems("p1") == 0)
        #expect(try await Self.owns(setup, "remove_ads") == false)
        #expect(try await setup.ledger.storeNotification(id: "evt_ref3")?.outcome.hasPrefix("revocations") == true)
    }

    @Test func aDisputeTakesEverythingBackAndAWonOneGivesItBackKeepingRefunds() async throws {
        let setup = try await Self.granted()
        setup.stripe.putCharge("ch_r", paymentIntent: "pi_1", amount: 1_996, refunded: 499)
        #expect(try await setup.deliver(Self.chargeEvent("evt_ref1")).httpStatus == 200)
        #expect(try await setup.gems("p1") == 200)
        setup.stripe.putDispute("dp_1", charge: "ch_r", status: "needs_response")
        let dispute = #"{"id":"dp_1","object":"dispute","amount":1497,"charge":"ch_r","currency":"usd","status":"needs_response"}"#
        let withdrawn = try await setup.deliver(
            Array(#"{"id":"evt_dw","object":"event","created":1796000100,"livemode":false,"type":"charge.dispute.funds_withdrawn","data":{"object":\#(dispute)}}"#.utf8))
        #expect(withdrawn.httpStatus == 200)
        #expect(try await setup.gems("p1") == 0)
        #expect(try await Self.owns(setup, "remove_ads") == false)
        setup.stripe.putDispute("dp_1", charge: "ch_r", status: "won")
        let reinstated = try await setup.deliver(
            Array(#"{"id":"evt_dr","object":"event","created":1796000200,"livemode":false,"type":"charge.dispute.funds_reinstated","data":{"object":\#(dispute)}}"#.utf8))
        #expect(reinstated.httpStatus == 200)
        #expect(try await setup.gems("p1") == 200, "the refunded pack stays refunded")
        #expect(try await Self.owns(setup, "remove_ads"))
        // An unknown dispute is refused, and the API is asked, never the webhook.
        let unknown = try await setup.deliver(
            Array(#"{"id":"evt_dx","object":"event","created":1796000300,"livemode":false,"type":"charge.dispute.funds_withdrawn","data":{"object":{"id":"dp_x","object":"dispute","amount":1,"charge":"ch_r","currency":"usd","status":"lost"}}}"#.utf8))
        #expect(unknown.httpStatus == 400)
        #expect(try await setup.gems("p1") == 200)
    }

    @Test func aRefundBeforeItsGrantWaitsForItAndAChargeNotFromCheckoutIsRecorded() async throws {
        let setup = try StripeLedgerSetup()
        setup.stripe.put("cs_w", player: "p1", lines: [.init(id: "li_g", price: "price_gems_small", quantity: 1)], paymentIntent: "pi_w")
        setup.stripe.putCharge("ch_w", paymentIntent: "pi_w", amount: 499, refunded: 499)
        let early = Array(
            #"{"id":"evt_early","object":"event","created":1796000060,"livemode":false,"type":"charge.refunded","data":{"object":{"id":"ch_w","object":"charge","amount":499,"amount_refunded":499,"currency":"usd","payment_intent":"pi_w","refunded":true,"livemode":false}}}"#.utf8)
        #expect(try await setup.deliver(early).httpStatus == 200)
        // The grant arrives after its refund: it is taken back at once.
        #expect(try await setup.deliver(
            StripeLedgerSetup.event("evt_late", type: "checkout.session.completed", object: StripeLedgerSetup.pushedSession("cs_w"))).httpStatus == 200)
        #expect(try await setup.gems("p1") == 0)
        setup.stripe.putCharge("ch_x", paymentIntent: "pi_other", amount: 100, refunded: 100)
        let other = Array(
            #"{"id":"evt_other","object":"event","created":1796000060,"livemode":false,"type":"charge.refunded","data":{"object":{"id":"ch_x","object":"charge","amount":100,"amount_refunded":100,"currency":"usd","refunded":true,"livemode":false}}}"#.utf8)
        #expect(try await setup.deliver(other) == .nothingToDo(type: .chargeRefunded))
        #expect(try await setup.ledger.storeNotification(id: "evt_other")?.outcome == "not a Checkout payment ch_x")
    }
}
