import Foundation
import FulfillmentLedger
import LedgerHTTPClient
import StripeAdapter
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A simulated Stripe account: Checkout Sessions paid, delayed, expired, refunded and disputed,
/// the webhooks Stripe would send about each (signed as Stripe signs them), and Stripe's API
/// answering the reads the ledger makes, in process (`HTTPTransport`, for `StripeAPIClient`) or on
/// a loopback port (`SimulatedAPIServer`).
///
/// Objects are rendered as Stripe renders them in API version `StripeAPIClient.apiVersion`, with
/// the fields the adapter reads. IDs are sequential (`cs_test_1`, `li_1`, `pi_1`, `ch_1`, `dp_1`,
/// `evt_1`); amounts are in cents of USD.
public final class StripeSimulator: HTTPTransport, Sendable {
    /// One line of a session: a Price, a quantity, and the price of one unit.
    public struct Line: Sendable, Hashable {
        /// The Price ID.
        public var price: String
        /// Units.
        public var quantity: Int
        /// One unit's price, in cents.
        public var unitAmount: Int64

        /// Creates a line.
        public init(price: String, quantity: Int = 1, unitAmount: Int64 = 499) {
            self.price = price
            self.quantity = quantity
            self.unitAmount = unitAmount
        }
    }

    /// A webhook as Stripe would deliver it: the raw body and its `Stripe-Signature` header.
    public struct Webhook: Sendable, Hashable {
        /// The event's ID.
        public var eventID: String
        /// The raw body.
        public var body: [UInt8]
        /// The `Stripe-Signature` header.
        public var signatureHeader: String
    }

    struct Session {
        var id: String
        var player: String?
        var lines: [(id: String, line: Line)]
        var paymentStatus: String
        var status: String
        var paymentIntent: String
        var created: Int64
    }

    struct Charge {
        var id: String
        var paymentIntent: String
        var amount: Int64
        var refunded: Int64
    }

    struct Dispute {
        var id: String
        var charge: String
        var status: String
    }

    struct State {
        var sessions: [String: Session] = [:]
        var charges: [String: Charge] = [:]
        var disputes: [String: Dispute] = [:]
        var next = 1
        var requests: [URLRequest] = []
        var outages = 0

        mutating func id(_ prefix: String) -> String {
            defer { next += 1 }
            return "\(prefix)_\(next)"
        }
    }

    /// The secret key the API accepts (`Authorization: Bearer …`).
    public let secretKey: String
    /// The webhook endpoint's signing secret.
    public let webhookSecret: String
    /// Whether this is live mode (false: test mode).
    public let livemode: Bool
    let clock: any LedgerClock
    let state = Mutex(State())

    /// A test-mode Stripe account on `clock`.
    public init(
        secretKey: String = "sk_test_simulated", webhookSecret: String = "whsec_simulated", livemode: Bool = false,
        clock: any LedgerClock = SystemClock()
    ) {
        self.secretKey = secretKey
        self.webhookSecret = webhookSecret
        self.livemode = livemode
        self.clock = clock
    }

    var nowSeconds: Int64 { Int64(clock.now().timeIntervalSince1970.rounded(.down)) }

    /// Every API request received, in order.
    public var requests: [URLRequest] { state.withLock { $0.requests } }

    /// The next `count` API requests fail with a 503, as during an outage.
    public func failNext(_ count: Int) { state.withLock { $0.outages = count } }

    /// The customer finishes Checkout for `player` (the game's `client_reference_id`; nil sets
    /// none): paid at once, or with a delayed payment method (`delayed`) that is still running.
    /// Returns the session's ID and the `checkout.session.completed` webhook.
    public func checkout(player: String?, lines: [Line], delayed: Bool = false) -> (sessionID: String, webhook: Webhook) {
        let now = nowSeconds
        let session = state.withLock { state in
            var session = Self.newSession(player: player, lines: lines, in: &state, now: now)
            session.paymentStatus = delayed ? "unpaid" : StripeCheckoutSession.paid
            if !delayed { Self.charge(&session, in: &state) }
            state.sessions[session.id] = session
            return session
        }
        return (session.id, webhook("checkout.session.completed", object: sessionJSON(session, lineItems: false)))
    }

    /// The delayed payment of `sessionID` succeeds: the session is paid and charged; returns the
    /// `checkout.session.async_payment_succeeded` webhook.
    public func succeedDelayedPayment(_ sessionID: String) -> Webhook? {
        guard let session = changeSession(sessionID, { session, state in
            session.paymentStatus = StripeCheckoutSession.paid
            Self.charge(&session, in: &state)
        }) else { return nil }
        return webhook("checkout.session.async_payment_succeeded", object: sessionJSON(session, lineItems: false))
    }

    /// The delayed payment of `sessionID` fails; returns `checkout.session.async_payment_failed`.
    public func failDelayedPayment(_ sessionID: String) -> Webhook? {
        guard let session = changeSession(sessionID, { _, _ in }) else { return nil }
        return webhook("checkout.session.async_payment_failed", object: sessionJSON(session, lineItems: false))
    }

    /// An open session for `player` expires unpaid; returns its ID and `checkout.session.expired`.
    public func expiredCheckout(player: String?, lines: [Line]) -> (sessionID: String, webhook: Webhook) {
        let now = nowSeconds
        let session = state.withLock { state in
            var session = Self.newSession(player: player, lines: lines, in: &state, now: now)
            session.status = "expired"
            state.sessions[session.id] = session
            return session
        }
        return (session.id, webhook("checkout.session.expired", object: sessionJSON(session, lineItems: false)))
    }

    /// The charge `chargeID`: what was charged and refunded so far, in cents.
    public func chargeObject(_ chargeID: String) -> (amount: Int64, refunded: Int64)? {
        state.withLock { $0.charges[chargeID].map { ($0.amount, $0.refunded) } }
    }

    /// The charge of `sessionID`'s payment, if it was paid.
    public func chargeID(of sessionID: String) -> String? {
        state.withLock { state in
            guard let intent = state.sessions[sessionID]?.paymentIntent else { return nil }
            return state.charges.values.first { $0.paymentIntent == intent }?.id
        }
    }

    /// Refunds `amount` cents more of `chargeID` (at most what is left); returns `charge.refunded`.
    public func refund(_ chargeID: String, amount: Int64) -> Webhook? {
        let charge: Charge? = state.withLock { state in
            guard var charge = state.charges[chargeID] else { return nil }
            charge.refunded = min(charge.amount, charge.refunded + max(0, amount))
            state.charges[chargeID] = charge
            return charge
        }
        guard let charge else { return nil }
        return webhook("charge.refunded", object: chargeJSON(charge))
    }

    /// Stripe reports a refund of `chargeID` again, as `refund.updated` (a status change of a
    /// refund already counted in the charge's `amount_refunded`): nil when nothing was refunded.
    public func refundUpdated(_ chargeID: String) -> Webhook? {
        let refund: (id: String, charge: Charge)? = state.withLock { state in
            guard let charge = state.charges[chargeID], charge.refunded > 0 else { return nil }
            return (state.id("re"), charge)
        }
        guard let refund else { return nil }
        let object = #"{"id":"\#(refund.id)","object":"refund","amount":\#(refund.charge.refunded),"charge":"\#(chargeID)","currency":"usd","payment_intent":"\#(refund.charge.paymentIntent)","status":"succeeded"}"#
        return webhook("refund.updated", object: object)
    }

    /// The cardholder disputes `chargeID` and the funds are withdrawn; returns the dispute's ID and
    /// `charge.dispute.funds_withdrawn`.
    public func dispute(_ chargeID: String) -> (disputeID: String, webhook: Webhook)? {
        let dispute: Dispute? = state.withLock { state in
            guard state.charges[chargeID] != nil else { return nil }
            let dispute = Dispute(id: state.id("dp"), charge: chargeID, status: "needs_response")
            state.disputes[dispute.id] = dispute
            return dispute
        }
        guard let dispute else { return nil }
        return (dispute.id, webhook("charge.dispute.funds_withdrawn", object: disputeJSON(dispute)))
    }

    /// The merchant wins `disputeID`: the funds come back; returns `charge.dispute.funds_reinstated`.
    public func winDispute(_ disputeID: String) -> Webhook? {
        let dispute: Dispute? = state.withLock { state in
            guard var dispute = state.disputes[disputeID] else { return nil }
            dispute.status = "won"
            state.disputes[disputeID] = dispute
            return dispute
        }
        guard let dispute else { return nil }
        return webhook("charge.dispute.funds_reinstated", object: disputeJSON(dispute))
    }

    /// The webhook of an event of `type` about `object`, signed with `webhookSecret` now.
    public func webhook(_ type: String, object: String) -> Webhook {
        let eventID = state.withLock { $0.id("evt") }
        let body = Array(
            #"{"id":"\#(eventID)","object":"event","api_version":"\#(StripeAPIClient.apiVersion)","created":\#(nowSeconds),"livemode":\#(livemode),"pending_webhooks":1,"type":"\#(type)","data":{"object":\#(object)}}"#
                .utf8)
        let header = StripeWebhookAuthenticator.signatureHeader(body: body, secret: webhookSecret, timestampSeconds: nowSeconds)
        return Webhook(eventID: eventID, body: body, signatureHeader: header)
    }

    /// `webhook` delivered again, as Stripe retries it: the same event, signed anew now.
    public func redelivery(of webhook: Webhook) -> Webhook {
        var again = webhook
        again.signatureHeader = StripeWebhookAuthenticator.signatureHeader(
            body: webhook.body, secret: webhookSecret, timestampSeconds: nowSeconds)
        return again
    }

    private func changeSession(_ id: String, _ change: (inout Session, inout State) -> Void) -> Session? {
        state.withLock { state in
            guard var session = state.sessions[id] else { return nil }
            change(&session, &state)
            state.sessions[id] = session
            return session
        }
    }

    /// A new unpaid, complete session, its IDs drawn in order.
    private static func newSession(player: String?, lines: [Line], in state: inout State, now: Int64) -> Session {
        let id = state.id("cs_test")
        var identified: [(id: String, line: Line)] = []
        for line in lines { identified.append((state.id("li"), line)) }
        let paymentIntent = state.id("pi")
        return Session(
            id: id, player: player, lines: identified, paymentStatus: "unpaid", status: "complete",
            paymentIntent: paymentIntent, created: now)
    }

    /// Charges a session its total.
    private static func charge(_ session: inout Session, in state: inout State) {
        let total = session.lines.reduce(Int64(0)) { $0 + $1.line.unitAmount * Int64($1.line.quantity) }
        let charge = Charge(id: state.id("ch"), paymentIntent: session.paymentIntent, amount: total, refunded: 0)
        state.charges[charge.id] = charge
    }
}
