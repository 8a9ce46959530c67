import AppStoreAdapter
import AppStoreSimulator
import Foundation
import FulfillmentLedger
import FulfillmentLedgerTesting
import Synchronization

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// A transport that records every request and answers each from a script, never the network.
final class RecordingTransport: HTTPTransport, Sendable {
    /// What one request gets: a response, or a transport failure.
    typealias Answer = @Sendable (URLRequest) -> Result<HTTPResponse, HTTPTransportError>

    private let answer: Answer
    private let recorded = Mutex<[URLRequest]>([])

    init(_ answer: @escaping Answer) { self.answer = answer }

    /// Answers the responses in order, repeating the last.
    convenience init(responses: [HTTPResponse]) {
        let index = Mutex(0)
        self.init { _ in
            index.withLock { next in
                defer { next += 1 }
                return .success(responses[min(next, responses.count - 1)])
            }
        }
    }

    var requests: [URLRequest] { recorded.withLock { $0 } }

    func send(_ request: URLRequest) async throws(HTTPTransportError) -> HTTPResponse {
        recorded.withLock { $0.append(request) }
        return try answer(request).get()
    }
}

/// The waits a client asked for, in order.
final class SleepLog: Sendable {
    private let recorded = Mutex<[Int]>([])
    func record(_ milliseconds: Int) { recorded.withLock { $0.append(milliseconds) } }
    var delays: [Int] { recorded.withLock { $0 } }
}

/// A sandbox App Store, a verifier trusting it, an API key and a recording transport, on a
/// manual clock that the injected sleeper advances instead of waiting.
struct ServerAPIFixture {
    static let bundleID = "com.kibblestreet.td"
    static let keyID = "KEY123ABCD"
    static let issuerID = "57246542-96fe-1a63-e053-0824d011072a"

    let clock = ManualClock()
    let simulator: AppStoreSimulator
    let verifier: SignedDataVerifier
    let key: AppStoreAPITestKey
    let sleeps = SleepLog()

    init() throws {
        simulator = try AppStoreSimulator(bundleID: Self.bundleID, environment: .sandbox, clock: clock)
        verifier = try SignedDataVerifier(
            AppStoreVerifierConfiguration(
                rootCertificates: [simulator.rootCertificateDER], bundleID: Self.bundleID, environment: .sandbox))
        key = try AppStoreAPITestKey()
    }

    /// A client over `transport`; its sleeps are recorded and advance the clock.
    func client(
        _ transport: any HTTPTransport, retryPolicy: HTTPRetryPolicy = HTTPRetryPolicy(retryCountMax: 2)
    ) throws -> AppStoreServerAPIClient {
        let clock = clock
        let sleeps = sleeps
        return try AppStoreServerAPIClient(
            key: try AppStoreAPISigningKey(pem: key.privateKeyPEM), keyID: Self.keyID, issuerID: Self.issuerID,
            verifier: verifier, baseURL: URL(string: "https://api.test")!, transport: transport,
            retryPolicy: retryPolicy, clock: clock,
            sleep: { milliseconds in
                sleeps.record(milliseconds)
                clock.advance(seconds: TimeInterval(milliseconds) / 1000)
            })
    }

    var recordedSleeps: [Int] { sleeps.delays }

    /// The simulated App Store Server API over this fixture's store, accepting its key.
    func simulatedAPI() -> AppStoreSimulatedServerAPI {
        AppStoreSimulatedServerAPI(
            simulator: simulator, key: key, keyID: Self.keyID, issuerID: Self.issuerID, clock: clock)
    }

    /// A 200 JSON response.
    static func json(_ object: Any, status: Int = 200, headers: [String: String] = [:]) -> HTTPResponse {
        let body = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()
        return HTTPResponse(statusCode: status, headers: headers.merging(["Content-Type": "application/json"]) { a, _ in a }, body: body)
    }

    /// Apple's error body.
    static func appleError(_ status: Int, _ code: Int, _ message: String, headers: [String: String] = [:]) -> HTTPResponse {
        json(["errorCode": code, "errorMessage": message], status: status, headers: headers)
    }
}

extension URLRequest {
    /// The query items, in order.
    var queryItems: [URLQueryItem] {
        url.flatMap { URLComponents(url: $0, resolvingAgainstBaseURL: false)?.queryItems } ?? []
    }

    /// The JSON body as an object.
    var jsonBody: [String: Any]? {
        httpBody.flatMap { try? JSONSerialization.jsonObject(with: $0) as? [String: Any] }
    }

    /// The bearer token.
    var bearerToken: String? {
        value(forHTTPHeaderField: "Authorization").flatMap { $0.hasPrefix("Bearer ") ? String($0.dropFirst(7)) : nil }
    }
}
