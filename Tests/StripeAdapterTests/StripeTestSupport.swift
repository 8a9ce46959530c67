import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import StripeAdapter
import Synchronization

/// Stripe's API as a test sees it: sessions, line items and charges held in memory, answered
/// as `StripeAPIClient` answers, with scripted outages.
final class InMemoryStripe: StripeCheckoutAPI, Sendable {
    struct Line {
        var id: String
        var price: String
        var quantity: Int
        /// The price of one unit, in cents.
        var unitAmount: Int64 = 499
    }

    private struct State {
        var sessions: [String: String] = [:]
        /// Session IDs by PaymentIntent.
        var sessionsByPaymentIntent: [String: [String]] = [:]
        var charges: [String: String] = [:]
        var disputes: [String: String] = [:]
        var outages = 0
        var reads = 0
    }

    private let state = Mutex(State())

    /// Adds (or replaces) a session: its JSON as Stripe renders it, with its line items expanded.
    func put(
        _ id: String, player: String?, lines: [Line], paymentStatus: String = "paid", status: String = "complete",
        mode: String = "payment", livemode: Bool = false, paymentIntent: String = "pi_1", metadata: [String: String] = [:]
    ) {
        let items = lines.map {
            #"{"id":"\#($0.id)","object":"item","price":{"id":"\#($0.price)","object":"price"},"quantity":\#($0.quantity),"amount_total":\#($0.unitAmount * Int64($0.quantity)),"currency":"usd"}"#
        }
        let reference = player.map { #""\#($0)""# } ?? "null"
        let meta = metadata.map { #""\#($0.key)":"\#($0.value)""# }.joined(separator: ",")
        let json = """
            {"id":"\(id)","object":"checkout.session","client_reference_id":\(reference),"metadata":{\(meta)},
             "livemode":\(livemode),"created":1796000000,"mode":"\(mode)","payment_intent":"\(paymentIntent)",
             "payment_status":"\(paymentStatus)","status":"\(status)",
             "line_items":{"object":"list","has_more":false,"data":[\(items.joined(separator: ","))]}}
            """
        state.withLock { state in
            state.sessions[id] = json
            if !(state.sessionsByPaymentIntent[paymentIntent] ?? []).contains(id) {
                state.sessionsByPaymentIntent[paymentIntent, default: []].append(id)
            }
        }
    }

    /// Sets the charge `id` of `paymentIntent`: `amount` charged, `refunded` of it refunded so far.
    func putCharge(_ id: String, paymentIntent: String, amount: Int64, refunded: Int64) {
        let json = #"{"id":"\#(id)","object":"charge","amount":\#(amount),"amount_refunded":\#(refunded),"currency":"usd","payment_intent":"\#(paymentIntent)","refunded":\#(refunded == amount),"livemode":false}"#
        state.withLock { $0.charges[id] = json }
    }

    /// Sets the dispute `id` of the charge `charge`.
    func putDispute(_ id: String, charge: String, status: String) {
        let json = #"{"id":"\#(id)","object":"dispute","amount":998,"charge":"\#(charge)","currency":"usd","payment_intent":"pi_1","reason":"fraudulent","status":"\#(status)"}"#
        state.withLock { $0.disputes[id] = json }
    }

    /// The next `count` reads fail as an outage.
    func failNext(_ count: Int) { state.withLock { $0.outages = count } }

    /// Reads answered so far.
    var reads: Int { state.withLock { $0.reads } }

    func checkoutSession(id: String) async throws(StripeAPIError) -> StripeCheckoutSession? {
        let json: String? = try state.withLock { (state) throws(StripeAPIError) -> String? in
            state.reads += 1
            if state.outages > 0 {
                state.outages -= 1
                throw .unavailable("HTTP 503")
            }
            return state.sessions[id]
        }
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode(StripeCheckoutSession.self, from: Data(json.utf8))
        } catch {
            throw .invalidResponse("\(error)")
        }
    }

    func checkoutSessions(paymentIntent: String) async throws(StripeAPIError) -> [StripeCheckoutSession] {
        var sessions: [StripeCheckoutSession] = []
        for id in state.withLock({ $0.sessionsByPaymentIntent[paymentIntent] ?? [] }) {
            if let session = try await checkoutSession(id: id) { sessions.append(session) }
        }
        return sessions
    }

    func charge(id: String) async throws(StripeAPIError) -> StripeCharge? {
        try decode(state.withLock { $0.charges[id] })
    }

    func dispute(id: String) async throws(StripeAPIError) -> StripeDispute? {
        try decode(state.withLock { $0.disputes[id] })
    }

    private func decode<Object: Decodable>(_ json: String?) throws(StripeAPIError) -> Object? {
        guard let json else { return nil }
        do {
            return try JSONDecoder().decode(Object.self, from: Data(json.utf8))
        } catch {
            throw .invalidResponse("\(error)")
        }
    }
}

/// A ledger selling on Stripe, its in-memory Stripe, and signed webhooks.
struct StripeLedgerSetup {
    static let secret = "whsec_setup_secret"
    static let catalogPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("ProductCatalog.json").path

    let clock = ManualClock(start: Date(timeIntervalSince1970: 1_796_000_100))
    let stripe = InMemoryStripe()
    let ledger: Ledger
    let processor: StripeWebhookProcessor

    /// The sample catalog with Stripe Prices for gems_small and remove_ads.
    static func catalog() throws -> ProductCatalog {
        let text = try String(contentsOfFile: catalogPath, encoding: .utf8)
            .replacingOccurrences(of: #""playStore": "gems_small","#, with: #""playStore": "gems_small", "stripe": "price_gems_small","#)
            .replacingOccurrences(of: #""playStore": "remove_ads","#, with: #""playStore": "remove_ads", "stripe": "price_remove_ads","#)
        return try CatalogLoader.parse(Array(text.utf8))
    }

    init(store: any LedgerStore = InMemoryLedgerStore()) throws {
        ledger = try Ledger(
            catalog: try Self.catalog(), store: store,
            verifier: StoreRoutingVerifier([.stripe: StripeCheckoutVerifier(api: stripe, environment: .sandbox)]),
            finisher: StoreRoutingFinisher([.stripe: StripeFinisher()]), clock: clock,
            configuration: LedgerConfiguration(environment: .sandbox))
        guard let authenticator = StripeWebhookAuthenticator(secrets: [Self.secret], clock: clock) else {
            throw CancellationError()
        }
        processor = StripeWebhookProcessor(api: stripe, ledger: ledger, authenticator: authenticator)
    }

    /// An event's body about `object` (JSON), as Stripe sends it.
    static func event(_ id: String, type: String, object: String) -> [UInt8] {
        Array(
            #"{"id":"\#(id)","object":"event","api_version":"2024-06-20","created":1796000050,"livemode":false,"type":"\#(type)","data":{"object":\#(object)}}"#
                .utf8)
    }

    /// A webhook's session object as the event carries it (no line items).
    static func pushedSession(_ id: String, paymentStatus: String = "paid") -> String {
        #"{"id":"\#(id)","object":"checkout.session","client_reference_id":"p1","livemode":false,"created":1796000000,"mode":"payment","payment_intent":"pi_1","payment_status":"\#(paymentStatus)","status":"complete"}"#
    }

    /// Delivers a signed webhook.
    func deliver(_ body: [UInt8], secret: String = secret) async throws -> StripeWebhookOutcome {
        let header = StripeWebhookAuthenticator.signatureHeader(
            body: body, secret: secret, timestampSeconds: Int64(clock.now().timeIntervalSince1970))
        return try await processor.process(signatureHeader: header, body: body)
    }

    func gems(_ player: String) async throws -> Int64 { try await ledger.player(player).balances["gems"] ?? 0 }
}
