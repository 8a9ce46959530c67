import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Port: supplies the Bearer token of Play Developer API requests.
public protocol PlayAccessTokenSource: Sendable {
    /// A currently valid access token.
    func accessToken() async throws(PlayAPIError) -> String
    /// Forgets `token` after the API refused it (HTTP 401), so the next call fetches a new one.
    func invalidate(_ token: String) async
}

/// Exchanges signed JWT assertions for OAuth 2.0 access tokens at the service account's
/// `token_uri` and caches each until `expires_in` minus `expirySafetyMarginSeconds`.
/// Concurrent callers share one refresh: at most one token request is in flight.
public actor AccessTokenProvider: PlayAccessTokenSource {
    /// How long before its stated expiry a token is replaced.
    public static let expirySafetyMarginSeconds: TimeInterval = 300
    /// Assumed lifetime when the token response has no `expires_in`.
    public static let defaultLifetimeSeconds: TimeInterval = 3600
    /// The OAuth 2.0 JWT bearer grant type (RFC 7523 §2.1).
    public static let jwtBearerGrantType = "urn:ietf:params:oauth:grant-type:jwt-bearer"

    private struct CachedToken: Sendable {
        var value: String
        var replaceAfter: Date
    }

    private let signer: JWTAssertionSigner
    private let executor: RetryingHTTPExecutor
    private let clock: any LedgerClock
    private var cached: CachedToken?
    private var refresh: Task<Result<CachedToken, PlayAPIError>, Never>?
    /// Token requests sent so far (successful or not), for diagnostics and tests.
    public private(set) var tokenRequestCount = 0

    /// Creates a provider for `credentials`, throwing `permanent` when the key cannot be used.
    public init(
        credentials: ServiceAccountCredentials, transport: any HTTPTransport = URLSessionTransport(),
        retryPolicy: PlayRetryPolicy = PlayRetryPolicy(), clock: any LedgerClock = SystemClock(),
        sleep: @escaping PlayRetrySleep = PlayRetryPolicy.taskSleep
    ) throws(PlayAPIError) {
        signer = try JWTAssertionSigner(credentials: credentials)
        executor = RetryingHTTPExecutor(transport: transport, policy: retryPolicy, clock: clock, sleep: sleep)
        self.clock = clock
    }

    /// The cached token while fresh, else a new one (joining a refresh already under way).
    public func accessToken() async throws(PlayAPIError) -> String {
        if let cached, clock.now() < cached.replaceAfter { return cached.value }
        let task: Task<Result<CachedToken, PlayAPIError>, Never>
        if let refresh {
            task = refresh
        } else {
            tokenRequestCount += 1
            let signer = signer
            let executor = executor
            let clock = clock
            task = Task { await Self.fetch(signer: signer, executor: executor, clock: clock) }
            refresh = task
        }
        let result = await task.value
        if refresh == task { refresh = nil }
        let token = try result.get()
        cached = token
        return token.value
    }

    /// Drops the cached token if it is still `token`.
    public func invalidate(_ token: String) {
        if cached?.value == token { cached = nil }
    }

    private struct TokenResponse: Decodable {
        var accessToken: String
        var expiresIn: Double?
        var tokenType: String?

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
            case tokenType = "token_type"
        }
    }

    private static func fetch(
        signer: JWTAssertionSigner, executor: RetryingHTTPExecutor, clock: any LedgerClock
    ) async -> Result<CachedToken, PlayAPIError> {
        do throws(PlayAPIError) {
            let requestedAt = clock.now()
            let assertion = try signer.assertion(issuedAt: requestedAt)
            var request = URLRequest(url: signer.credentials.tokenURI)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.httpBody = Data(
                FormEncoding.encode([("grant_type", jwtBearerGrantType), ("assertion", assertion)]).utf8)
            let response = try await executor.send(request, describedAs: "token request")
            let detail = "token request: HTTP \(response.statusCode)"
                + (PlayErrorBody.message(in: response.body).map { ": \($0)" } ?? "")
            switch response.statusCode {
            case 200..<300: break
            case 400, 401, 403: throw PlayAPIError.unauthorized(detail)
            default: throw PlayAPIError.permanent(detail)
            }
            guard let decoded = try? JSONDecoder().decode(TokenResponse.self, from: response.body),
                !decoded.accessToken.isEmpty
            else { throw PlayAPIError.permanent("token request: response has no access_token") }
            let lifetime = decoded.expiresIn ?? defaultLifetimeSeconds
            let replaceAfter = requestedAt.addingTimeInterval(max(0, lifetime - expirySafetyMarginSeconds))
            return .success(CachedToken(value: decoded.accessToken, replaceAfter: replaceAfter))
        } catch {
            return .failure(error)
        }
    }
}
