import Foundation
import FulfillmentLedger
import LedgerHTTPClient

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The Stripe API calls the ledger makes to confirm what a webhook says: a Checkout Session
/// with all its line items, the sessions of a PaymentIntent, a charge and a dispute. Authenticated with the
/// account's secret key (`sk_…`, or a restricted `rk_…` key that may read Checkout Sessions and
/// charges), pinned to one API version so objects always have the shape the adapter reads.
/// 429, 5xx and transient transport failures are retried under the policy.
public struct StripeAPIClient: Sendable {
    /// The API version every request asks for (`Stripe-Version`).
    public static let apiVersion = "2024-06-20"
    /// Stripe's API.
    public static let baseURLDefault = URL(string: "https://api.stripe.com")!
    /// Most line items a session may have: Checkout's own limit. One page of this size reads them all.
    public static let lineItemCountMax = 100
    /// Most sessions one PaymentIntent is expected to have (Checkout creates one).
    public static let sessionsPerPaymentIntentMax = 10
    /// Largest answer read, in bytes.
    public static let responseByteCountMax = 2 * 1024 * 1024
    /// Longest ID sent in a path or query, in bytes.
    public static let identifierByteCountMax = 255

    private let secretKey: String
    /// Stripe's API base URL (a loopback stand-in in tests).
    public let baseURL: URL
    private let sender: RetryingHTTPSender

    /// A client using `secretKey`; nil for an empty key.
    public init?(
        secretKey: String, baseURL: URL = baseURLDefault, transport: any HTTPTransport = URLSessionTransport(),
        retryPolicy: HTTPRetryPolicy = HTTPRetryPolicy(), clock: any LedgerClock = SystemClock(),
        sleep: @escaping HTTPRetrySleep = HTTPRetryPolicy.taskSleep
    ) {
        guard !secretKey.isEmpty, secretKey.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.secretKey = secretKey
        self.baseURL = baseURL
        sender = RetryingHTTPSender(
            transport: transport, policy: retryPolicy, clock: clock, sleep: sleep,
            dialect: HTTPErrorDialect(
                retryAfterMilliseconds: { response, now in
                    HTTPRetryPolicy.retryAfterMilliseconds(response.headers["retry-after"], now: now)
                },
                failureMessage: { body in StripeErrorBody.message(in: body) }))
    }

    /// The Checkout Session `sessionID` with every line item (`GET /v1/checkout/sessions/{id}`
    /// and its `line_items`), or nil when Stripe has no such session.
    public func checkoutSession(id sessionID: String) async throws(StripeAPIError) -> StripeCheckoutSession? {
        let segment = try Self.segment(sessionID)
        guard var session: StripeCheckoutSession = try await get("/v1/checkout/sessions/\(segment)") else { return nil }
        guard session.id == sessionID else { throw .invalidResponse("asked for session \(sessionID), got \(session.id)") }
        let items: StripeList<StripeLineItem>? = try await get(
            "/v1/checkout/sessions/\(segment)/line_items", query: [("limit", String(Self.lineItemCountMax))])
        guard let items else { return nil }
        guard !items.hasMore, items.data.count <= Self.lineItemCountMax else {
            throw .invalidResponse("session \(sessionID) has more than \(Self.lineItemCountMax) line items")
        }
        session.lineItems = items
        return session
    }

    /// The Checkout Sessions of the PaymentIntent `paymentIntentID` (`GET /v1/checkout/sessions?payment_intent=`):
    /// how a refund or dispute, which names the PaymentIntent, finds its purchase.
    public func checkoutSessions(paymentIntent paymentIntentID: String) async throws(StripeAPIError) -> [StripeCheckoutSession] {
        _ = try Self.segment(paymentIntentID)
        let list: StripeList<StripeCheckoutSession>? = try await get(
            "/v1/checkout/sessions",
            query: [("payment_intent", paymentIntentID), ("limit", String(Self.sessionsPerPaymentIntentMax))])
        guard let list else { return [] }
        guard !list.hasMore else {
            throw .invalidResponse("PaymentIntent \(paymentIntentID) has more than \(Self.sessionsPerPaymentIntentMax) sessions")
        }
        return list.data
    }

    /// The charge `chargeID` (`GET /v1/charges/{id}`), as Stripe holds it now; nil when unknown.
    public func charge(id chargeID: String) async throws(StripeAPIError) -> StripeCharge? {
        guard let charge: StripeCharge = try await get("/v1/charges/\(try Self.segment(chargeID))") else { return nil }
        guard charge.id == chargeID else { throw .invalidResponse("asked for charge \(chargeID), got \(charge.id)") }
        return charge
    }

    /// The dispute `disputeID` (`GET /v1/disputes/{id}`), as Stripe holds it now; nil when unknown.
    public func dispute(id disputeID: String) async throws(StripeAPIError) -> StripeDispute? {
        guard let dispute: StripeDispute = try await get("/v1/disputes/\(try Self.segment(disputeID))") else { return nil }
        guard dispute.id == disputeID else { throw .invalidResponse("asked for dispute \(disputeID), got \(dispute.id)") }
        return dispute
    }

    /// A GET of `path`, decoded; nil for a 404.
    private func get<Object: Decodable>(_ path: String, query: [(String, String)] = []) async throws(StripeAPIError) -> Object? {
        var components = URLComponents(url: baseURL.appendingPathComponent(path), resolvingAgainstBaseURL: false)
        if !query.isEmpty { components?.percentEncodedQuery = query.map { "\($0)=\(FormEncoding.escape($1))" }.joined(separator: "&") }
        guard let url = components?.url else { throw .transport("cannot build a URL for \(path)") }
        var request = URLRequest(url: url)
        request.httpMethod = "GET"
        request.setValue("Bearer \(secretKey)", forHTTPHeaderField: "Authorization")
        request.setValue(Self.apiVersion, forHTTPHeaderField: "Stripe-Version")
        let response: HTTPResponse
        do {
            response = try await sender.send(request)
        } catch {
            switch error.kind {
            case .exhausted: throw .unavailable(error.lastFailure)
            case .permanent: throw .transport(error.lastFailure)
            }
        }
        let detail = StripeErrorBody.message(in: response.body) ?? "no message"
        switch response.statusCode {
        case 200: break
        case 404: return nil
        case 401, 403: throw .unauthorized(statusCode: response.statusCode, detail: detail)
        default: throw .rejected(statusCode: response.statusCode, detail: detail)
        }
        guard response.body.count <= Self.responseByteCountMax else {
            throw .invalidResponse("\(path): \(response.body.count) bytes, more than \(Self.responseByteCountMax)")
        }
        do {
            return try JSONDecoder().decode(Object.self, from: response.body)
        } catch {
            throw .invalidResponse("\(path): \(error)")
        }
    }

    /// `id` for a path segment: Stripe's IDs are short and plain, so anything else is refused.
    static func segment(_ id: String) throws(StripeAPIError) -> String {
        guard !id.isEmpty, id.utf8.count <= identifierByteCountMax,
            id.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) || $0 == 0x5F })
        else { throw .invalidResponse("\"\(id.prefix(64))\" is not a Stripe ID") }
        return id
    }
}

/// Stripe's error body: `{"error": {"type", "code", "message"}}`.
enum StripeErrorBody {
    private struct Wire: Decodable {
        struct Detail: Decodable {
            var type: String?
            var code: String?
            var message: String?
        }
        var error: Detail
    }

    /// `type code: message`, from a body Stripe wrote; nil otherwise.
    static func message(in body: Data) -> String? {
        guard let wire = try? JSONDecoder().decode(Wire.self, from: body) else { return nil }
        let parts = [wire.error.type, wire.error.code].compactMap { $0 }.joined(separator: " ")
        return [parts.isEmpty ? nil : parts, wire.error.message].compactMap { $0 }.joined(separator: ": ")
    }
}
