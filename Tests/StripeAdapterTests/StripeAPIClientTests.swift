import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import LedgerHTTPClient
import StripeAdapter
import Synchronization
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport answering from a script by path, recording every request.
final class ScriptedStripeTransport: HTTPTransport, Sendable {
    private let answers: Mutex<[String: [HTTPResponse]]>
    private let recorded = Mutex<[URLRequest]>([])

    init(_ answers: [String: [HTTPResponse]]) { self.answers = Mutex(answers) }

    var requests: [URLRequest] { recorded.withLock { $0 } }

    func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        let path = request.url?.path ?? ""
        return answers.withLock { answers in
            guard var queue = answers[path], !queue.isEmpty else { return HTTPResponse(statusCode: 404, body: Data(#"{"error":{"type":"invalid_request_error","code":"resource_missing","message":"No such object"}}"#.utf8)) }
            let next = queue.count > 1 ? queue.removeFirst() : queue[0]
            answers[path] = queue
            return next
        }
    }
}

/// `StripeAPIClient` against a scripted transport: the key and version sent, a session read with
/// all its line items, a missing object as nil, and every failure typed.
@Suite struct StripeAPIClientTests {
    static let session = #"{"id":"cs_test_1","object":"checkout.session","client_reference_id":"p1","livemode":false,"created":1796000000,"mode":"payment","payment_intent":"pi_1","payment_status":"paid","status":"complete"}"#
    static let items = #"{"object":"list","has_more":false,"data":[{"id":"li_1","object":"item","price":{"id":"price_gems","object":"price"},"quantity":3}]}"#

    static func json(_ status: Int, _ text: String) -> HTTPResponse { HTTPResponse(statusCode: status, body: Data(text.utf8)) }

    static func client(_ transport: ScriptedStripeTransport) throws -> StripeAPIClient {
        let sleep: HTTPRetrySleep = { _ in }
        let client = StripeAPIClient(
            secretKey: "sk_test_abc", baseURL: URL(string: "https://api.test")!, transport: transport,
            retryPolicy: HTTPRetryPolicy(retryCountMax: 2), clock: ManualClock(), sleep: sleep)
        return try #require(client)
    }

    @Test func aSessionIsReadWithItsLineItemsByKeyAndPinnedVersion() async throws {
        let transport = ScriptedStripeTransport([
            "/v1/checkout/sessions/cs_test_1": [Self.json(200, Self.session)],
            "/v1/checkout/sessions/cs_test_1/line_items": [Self.json(200, Self.items)],
        ])
        let session = try #require(try await Self.client(transport).checkoutSession(id: "cs_test_1"))
        #expect(session.clientReferenceID == "p1" && session.lineItems?.data.map(\.priceID) == ["price_gems"])
        #expect(session.lineItems?.data.first?.quantity == 3)
        let first = try #require(transport.requests.first)
        #expect(first.value(forHTTPHeaderField: "Authorization") == "Bearer sk_test_abc")
        #expect(first.value(forHTTPHeaderField: "Stripe-Version") == StripeAPIClient.apiVersion)
        #expect(transport.requests.last?.url?.query == "limit=100")
        #expect(try await Self.client(transport).checkoutSession(id: "cs_missing") == nil)
    }

    @Test func failuresAreTypedAndOnlyOutagesAreRetried() async throws {
        let path = "/v1/charges/ch_1"
        let cases: [([HTTPResponse], Int)] = [
            ([Self.json(401, #"{"error":{"type":"invalid_request_error","message":"Invalid API Key"}}"#)], 10101),
            ([Self.json(400, #"{"error":{"type":"invalid_request_error","code":"parameter_invalid"}}"#)], 10102),
            ([Self.json(503, "{}")], 10103),
            ([Self.json(200, #"{"id":"ch_2","object":"charge","amount":1,"amount_refunded":0,"currency":"usd","refunded":false,"livemode":false}"#)], 10105),
            ([Self.json(200, "not json")], 10105),
        ]
        for (answers, code) in cases {
            let transport = ScriptedStripeTransport([path: answers])
            let client = try Self.client(transport)
            let error = await #expect(throws: StripeAPIError.self) { try await client.charge(id: "ch_1") }
            #expect(error?.code == code, "\(String(describing: error))")
            #expect(transport.requests.count == (code == 10103 ? 3 : 1), "\(code): retried \(transport.requests.count - 1) times")
        }
        // A 503 then the answer: retried once, then read.
        let recovering = ScriptedStripeTransport([
            path: [Self.json(503, "{}"), Self.json(200, #"{"id":"ch_1","object":"charge","amount":499,"amount_refunded":499,"currency":"usd","refunded":true,"livemode":false}"#)]
        ])
        #expect(try await Self.client(recovering).charge(id: "ch_1")?.amountRefunded == 499)
        // An ID that is not Stripe's is never sent.
        let unused = ScriptedStripeTransport([:])
        await #expect(throws: StripeAPIError.self) { try await Self.client(unused).charge(id: "../v1/balance") }
        #expect(unused.requests.isEmpty)
        #expect(StripeAPIClient(secretKey: "") == nil && StripeAPIClient(secretKey: "sk test") == nil)
    }

    @Test func aSessionWithTooManyLineItemsAndThePaymentIntentLookupAreBounded() async throws {
        let transport = ScriptedStripeTransport([
            "/v1/checkout/sessions/cs_test_1": [Self.json(200, Self.session)],
            "/v1/checkout/sessions/cs_test_1/line_items": [Self.json(200, Self.items.replacingOccurrences(of: #""has_more":false"#, with: #""has_more":true"#))],
            "/v1/checkout/sessions": [Self.json(200, #"{"object":"list","has_more":false,"data":[\#(Self.session)]}"#)],
        ])
        await #expect(throws: StripeAPIError.self) { try await Self.client(transport).checkoutSession(id: "cs_test_1") }
        let sessions = try await Self.client(transport).checkoutSessions(paymentIntent: "pi_1")
        #expect(sessions.map(\.id) == ["cs_test_1"])
        #expect(transport.requests.last?.url?.query == "payment_intent=pi_1&limit=10")
    }
}
