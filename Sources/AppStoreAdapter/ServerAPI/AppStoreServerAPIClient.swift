@_exported import LedgerHTTPClient
import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The App Store Server API over HTTPS, for one app in one environment.
///
/// Every request carries a fresh-enough ES256 JWT (`AppStoreAPITokenProvider`), keeps to the
/// endpoint's rate limit (`AppStoreAPIEndpoint`), has the retry policy's timeout and is retried
/// on 429 (honouring `Retry-After`), 5xx and transient transport failures, at most
/// `retryPolicy.retryCountMax` times. 401 and 403 are `unauthorized`, never retried. Every JWS
/// in an answer is verified with the `SignedDataVerifier` before anything of it is returned.
///
/// Environment routing: the client serves the verifier's environment only, production on
/// `productionBaseURL` and sandbox on `sandboxBaseURL`. A transaction of the other environment is
/// "not found" (404, 4040010): the client returns that as a value and never asks the other host,
/// because a ledger that served it would grant sandbox purchases in production.
public final class AppStoreServerAPIClient: Sendable {
    /// Apple's production host.
    public static let productionBaseURL = URL(string: "https://api.storekit.itunes.apple.com")!
    /// Apple's sandbox host.
    public static let sandboxBaseURL = URL(string: "https://api.storekit-sandbox.itunes.apple.com")!
    /// The most pages one paginated read follows; it stops there and reports `hasMore`, so a
    /// loop over Apple's answers always ends.
    public static let pageCountMaxDefault = 50

    /// The API root.
    public let baseURL: URL
    /// The environment served: the verifier's.
    public let environment: AppStoreEnvironment
    /// Signs and caches the request JWTs.
    public let tokenProvider: AppStoreAPITokenProvider
    /// Verifies every JWS Apple returns; its bundle ID and environment are the client's.
    public let verifier: SignedDataVerifier
    let clock: any LedgerClock
    private let sender: RetryingHTTPSender
    private let rateLimiter: AppStoreAPIRateLimiter
    private let sleep: HTTPRetrySleep
    private let retryCountMax: Int

    /// Creates a client.
    /// - Parameters:
    ///   - key: the `.p8` key, read once (`AppStoreAPISigningKey(contentsOfFile:)`).
    ///   - keyID: the key's ID in App Store Connect.
    ///   - issuerID: the issuer ID in App Store Connect.
    ///   - verifier: verifies every JWS returned; its bundle ID and environment are the client's.
    ///   - baseURL: overrides Apple's host for the environment (a test server's, in tests).
    ///   - transport: `URLSessionTransport()` unless stubbed.
    ///   - retryPolicy: timeouts, backoff and `retryCountMax`.
    ///   - clock: the time for JWTs, rate limits and `Retry-After`.
    ///   - sleep: the wait for retries and rate limits.
    /// - Throws: `configuration` for `.xcode` or `.localTesting` without a `baseURL`.
    public init(
        key: AppStoreAPISigningKey, keyID: String, issuerID: String, verifier: SignedDataVerifier, baseURL: URL? = nil,
        transport: any HTTPTransport = URLSessionTransport(), retryPolicy: HTTPRetryPolicy = HTTPRetryPolicy(),
        clock: any LedgerClock = SystemClock(), sleep: @escaping HTTPRetrySleep = HTTPRetryPolicy.taskSleep
    ) throws(AppStoreServerAPIError) {
        let environment = verifier.configuration.environment
        switch (environment, baseURL) {
        case (_, let url?): self.baseURL = url
        case (.production, nil): self.baseURL = Self.productionBaseURL
        case (.sandbox, nil): self.baseURL = Self.sandboxBaseURL
        default: throw .configuration("the App Store Server API has no host for environment \(environment.rawValue)")
        }
        self.environment = environment
        self.verifier = verifier
        self.clock = clock
        self.sleep = sleep
        retryCountMax = retryPolicy.retryCountMax
        tokenProvider = AppStoreAPITokenProvider(
            key: key, keyID: keyID, issuerID: issuerID, bundleID: verifier.configuration.bundleID, clock: clock)
        rateLimiter = AppStoreAPIRateLimiter(environment: environment)
        sender = RetryingHTTPSender(
            transport: transport, policy: retryPolicy, clock: clock, sleep: sleep,
            dialect: HTTPErrorDialect(
                retryAfterMilliseconds: { response, now in
                    Self.retryAfterMilliseconds(response.headers["retry-after"], now: now)
                },
                failureMessage: { body in AppStoreAPIErrorResponse.message(in: body) }, stopsBeyondRetryAfterCap: true))
    }

    // MARK: - Requests

    /// Sends one request and returns a 2xx response's body; every other outcome is an error.
    func perform(
        _ endpoint: AppStoreAPIEndpoint, method: String, path: String, query: [(String, String)] = [], body: Data? = nil
    ) async throws(AppStoreServerAPIError) -> Data {
        var request = URLRequest(url: url(path: path, query: query))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        request.setValue("Bearer \(try tokenProvider.token())", forHTTPHeaderField: "Authorization")
        let delay = rateLimiter.reserveDelayMilliseconds(for: endpoint, now: clock.now())
        if delay > 0 { await sleep(delay) }
        let response: HTTPResponse
        do {
            response = try await sender.send(request)
        } catch {
            throw mapped(error, endpoint: endpoint)
        }
        switch response.statusCode {
        case 200..<300: return response.body
        case 401, 403:
            // A refused token is never reused; the key, IDs or bundle ID need fixing, not a retry.
            tokenProvider.invalidate()
            throw .unauthorized(
                statusCode: response.statusCode,
                detail: "\(endpoint.rawValue): \(AppStoreAPIErrorResponse(httpStatusCode: response.statusCode, body: response.body))")
        default:
            throw .rejected(AppStoreAPIErrorResponse(httpStatusCode: response.statusCode, body: response.body))
        }
    }

    /// The error for a request the sender gave up on.
    private func mapped(_ failure: HTTPSendFailure, endpoint: AppStoreAPIEndpoint) -> AppStoreServerAPIError {
        let detail = "\(endpoint.rawValue): \(failure.lastFailure)"
        switch failure.kind {
        case .permanent: return .transport(detail)
        case .exhausted:
            guard let last = failure.lastResponse, last.statusCode == 429 else {
                return .unavailable("\(detail) after at most \(retryCountMax) retries")
            }
            let wait = Self.retryAfterMilliseconds(last.headers["retry-after"], now: clock.now())
            return .rateLimited(
                retryAfter: wait.map { clock.now().addingTimeInterval(TimeInterval($0) / 1000) }, detail: detail)
        }
    }

    /// Decodes a 2xx body as `Body`.
    func decode<Body: Decodable>(
        _ type: Body.Type, from data: Data, endpoint: AppStoreAPIEndpoint
    ) throws(AppStoreServerAPIError) -> Body {
        do {
            return try JSONDecoder().decode(Body.self, from: data)
        } catch {
            throw .invalidResponse("\(endpoint.rawValue): undecodable response (\(error))")
        }
    }

    /// Verifies a transaction JWS from Apple.
    func verifiedTransaction(_ jws: String) throws(AppStoreServerAPIError) -> AppStoreSignedTransaction {
        switch verifier.verifyTransaction(jws) {
        case .success(let transaction): return AppStoreSignedTransaction(jws: jws, transaction: transaction)
        case .failure(let error): throw .verification(error)
        }
    }

    /// Percent-encodes one path segment.
    static func segment(_ text: String) -> String { FormEncoding.escape(text) }

    private func url(path: String, query: [(String, String)]) -> URL {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let queryString = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        // Every component is percent-encoded to the unreserved set, so the string always parses.
        return URL(string: root + path + queryString)!
    }

    /// Apple's `Retry-After` in milliseconds from `now`: Apple sends the UNIX time in
    /// milliseconds when the next request is accepted; delta-seconds and HTTP-dates, the forms
    /// HTTP allows, are read too.
    static func retryAfterMilliseconds(_ header: String?, now: Date) -> Int? {
        guard let text = header?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        if let number = Int64(text), number >= unixMillisecondsThreshold {
            return Int(max(0, number - now.ledgerMilliseconds))
        }
        return HTTPRetryPolicy.retryAfterMilliseconds(text, now: now)
    }

    /// A `Retry-After` number at least this large is a UNIX time in milliseconds (2001 onwards),
    /// never a delay in seconds (that would be over 31 years).
    static let unixMillisecondsThreshold: Int64 = 1_000_000_000_000
}
