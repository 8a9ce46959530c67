import Foundation
import FulfillmentLedger

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `PlayPurchasesAPI` over the Google Play Developer API (Android Publisher v3) on HTTPS.
///
/// Every request carries `Authorization: Bearer` from a `PlayAccessTokenSource`, has the retry
/// policy's timeout and is retried with jittered exponential backoff on 429, 5xx and transient
/// transport failures. Statuses map to `PlayAPIError`: 400/410 `invalidToken`, 404 `notFound`,
/// 401/403 `unauthorized` (a 401 first drops the token and retries once with a fresh one),
/// 429/5xx/timeouts that outlast the retries `retryable`, anything else `permanent`.
public struct PlayDeveloperAPIClient: PlayPurchasesAPI {
    /// Google's Android Publisher host.
    public static let defaultBaseURL = URL(string: "https://androidpublisher.googleapis.com")!
    /// How far back `voidedpurchases.list` may start: Google refuses older `startTime`s.
    public static let voidedLookbackDaysMax = 30
    /// Kept off the 30-day limit so a request in flight does not cross it.
    public static let voidedLookbackMarginSeconds: TimeInterval = 60
    /// Google's largest `maxResults` for `voidedpurchases.list`.
    public static let voidedPageSizeMax = 1000
    /// Fresh tokens tried after a 401 before giving up with `unauthorized`.
    public static let unauthorizedRefreshCountMax = 1

    /// The API root, `https://androidpublisher.googleapis.com` unless told otherwise.
    public let baseURL: URL
    private let tokenSource: any PlayAccessTokenSource
    private let executor: RetryingHTTPExecutor
    private let clock: any LedgerClock

    /// Creates a client.
    /// - Parameters:
    ///   - tokenSource: usually an `AccessTokenProvider` for the service account.
    ///   - baseURL: the API root (a test server's, in tests).
    ///   - transport: `URLSessionTransport()` unless stubbed.
    ///   - retryPolicy: timeouts and backoff.
    ///   - clock: the time for the 30-day voided-purchases limit and `Retry-After` dates.
    ///   - sleep: the wait between retries.
    public init(
        tokenSource: any PlayAccessTokenSource, baseURL: URL = defaultBaseURL,
        transport: any HTTPTransport = URLSessionTransport(), retryPolicy: PlayRetryPolicy = PlayRetryPolicy(),
        clock: any LedgerClock = SystemClock(), sleep: @escaping PlayRetrySleep = PlayRetryPolicy.taskSleep
    ) {
        self.tokenSource = tokenSource
        self.baseURL = baseURL
        executor = RetryingHTTPExecutor(transport: transport, policy: retryPolicy, clock: clock, sleep: sleep)
        self.clock = clock
    }

    /// `GET …/purchases/products/{productId}/tokens/{token}`. The returned purchase's
    /// `purchaseToken` and `productId` are filled from the arguments when Google omits them.
    public func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    {
        let url = productURL(packageName: packageName, storeProductID: storeProductID, token: token, action: nil)
        let body = try await perform(method: "GET", url: url, body: nil, label: "purchases.products.get")
        var purchase: ProductPurchase
        do {
            purchase = try JSONDecoder().decode(ProductPurchase.self, from: body)
        } catch {
            throw .permanent("purchases.products.get: undecodable response (\(error))")
        }
        if purchase.purchaseToken == nil { purchase.purchaseToken = token }
        if purchase.productId == nil { purchase.productId = storeProductID }
        return purchase
    }

    /// `POST …/tokens/{token}:acknowledge` with an empty JSON body.
    public func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        let url = productURL(packageName: packageName, storeProductID: storeProductID, token: token, action: "acknowledge")
        _ = try await perform(method: "POST", url: url, body: Data("{}".utf8), label: "purchases.products.acknowledge")
    }

    /// `POST …/tokens/{token}:consume` with an empty body.
    public func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError) {
        let url = productURL(packageName: packageName, storeProductID: storeProductID, token: token, action: "consume")
        _ = try await perform(method: "POST", url: url, body: Data(), label: "purchases.products.consume")
    }

    /// `GET …/purchases/voidedpurchases`, one page: `type=0` (one-time products), or `type=1`
    /// (subscriptions too) when `includeSubscriptions` is true; with
    /// `includeQuantityBasedPartialRefund=true` when asked (without it Google leaves
    /// quantity-based partial refunds out of the list).
    ///
    /// A `startTime` older than `voidedLookbackDaysMax` days (less `voidedLookbackMarginSeconds`)
    /// is clamped to that limit rather than refused, so a cursor that fell behind still reads the
    /// oldest voids Google keeps; `maxResults` is clamped to `1...voidedPageSizeMax`.
    public func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        var query: [(String, String)] = [
            ("startTime", String(effectiveVoidedStartTime(startTime).ledgerMilliseconds))
        ]
        if let endTime { query.append(("endTime", String(endTime.ledgerMilliseconds))) }
        if let pageToken { query.append(("token", pageToken)) }
        query.append(("maxResults", String(min(max(1, maxResults), Self.voidedPageSizeMax))))
        query.append(("type", includeSubscriptions ? "1" : "0"))
        if includeQuantityBasedPartialRefund { query.append(("includeQuantityBasedPartialRefund", "true")) }
        let path = applicationPath(packageName) + "/purchases/voidedpurchases"
        let url = makeURL(path: path, query: query)
        let body = try await perform(method: "GET", url: url, body: nil, label: "voidedpurchases.list")
        do {
            let wire = try JSONDecoder().decode(VoidedWire.self, from: body)
            return VoidedPurchasesPage(
                voidedPurchases: wire.voidedPurchases ?? [], nextPageToken: wire.tokenPagination?.nextPageToken)
        } catch {
            throw .permanent("voidedpurchases.list: undecodable response (\(error))")
        }
    }

    /// `GET …/purchases/subscriptionsv2/tokens/{token}`.
    public func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2 {
        let path = applicationPath(packageName) + "/purchases/subscriptionsv2/tokens/" + FormEncoding.escape(token)
        let body = try await perform(method: "GET", url: makeURL(path: path, query: []), body: nil, label: "purchases.subscriptionsv2.get")
        do {
            return try JSONDecoder().decode(SubscriptionPurchaseV2.self, from: body)
        } catch {
            throw .permanent("purchases.subscriptionsv2.get: undecodable response (\(error))")
        }
    }

    /// `POST …/purchases/subscriptions/{subscriptionId}/tokens/{token}:acknowledge` with an
    /// empty JSON body, or `{"externalAccountIds":{…}}` when `externalAccountIDs` is given. IDs
    /// Google would refuse (empty, or over 64 characters) are a `permanent` error, sent nowhere.
    public func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError) {
        let label = "purchases.subscriptions.acknowledge"
        var body = Data("{}".utf8)
        if let externalAccountIDs {
            guard externalAccountIDs.isAcceptable else {
                throw .permanent(
                    "\(label): externalAccountIds must be 1 to \(PlayExternalAccountIDs.characterCountMax) characters each")
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = .sortedKeys
            // Two optional strings always encode.
            body = (try? encoder.encode(AcknowledgeWire(externalAccountIds: externalAccountIDs))) ?? body
        }
        let path = applicationPath(packageName) + "/purchases/subscriptions/" + FormEncoding.escape(storeProductID)
            + "/tokens/" + FormEncoding.escape(token) + ":acknowledge"
        _ = try await perform(method: "POST", url: makeURL(path: path, query: []), body: body, label: label)
    }

    /// `POST …/orders/{orderId}:reviewrefund` with the answer as JSON. A body Google would refuse
    /// (more than `usageEventCountMax` usage events) is a `permanent` error, sent nowhere.
    public func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest)
        async throws(PlayAPIError)
    {
        let label = "orders.reviewrefund"
        guard (request.consumptionUsageEvents?.count ?? 0) <= PlayRefundReviewRequest.usageEventCountMax else {
            throw .permanent("\(label): more than \(PlayRefundReviewRequest.usageEventCountMax) consumption usage events")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let body: Data
        do {
            body = try encoder.encode(request)
        } catch {
            throw .permanent("\(label): the answer does not encode (\(error))")
        }
        let path = applicationPath(packageName) + "/orders/" + FormEncoding.escape(orderID) + ":reviewrefund"
        _ = try await perform(method: "POST", url: makeURL(path: path, query: []), body: body, label: label)
    }

    /// `GET …/purchases/productsv2/tokens/{token}` (no product ID in the path).
    public func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2 {
        let path = applicationPath(packageName) + "/purchases/productsv2/tokens/" + FormEncoding.escape(token)
        let label = "purchases.productsv2.getproductpurchasev2"
        let body = try await perform(method: "GET", url: makeURL(path: path, query: []), body: nil, label: label)
        do {
            return try JSONDecoder().decode(ProductPurchaseV2.self, from: body)
        } catch {
            throw .permanent("\(label): undecodable response (\(error))")
        }
    }

    /// `GET …/orders/{orderId}`.
    public func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder {
        let path = applicationPath(packageName) + "/orders/" + FormEncoding.escape(orderID)
        let body = try await perform(method: "GET", url: makeURL(path: path, query: []), body: nil, label: "orders.get")
        do {
            return try JSONDecoder().decode(PlayOrder.self, from: body)
        } catch {
            throw .permanent("orders.get: undecodable response (\(error))")
        }
    }

    /// `GET …/orders:batchGet?orderIds=A&orderIds=B…`. A batch Google would refuse (see
    /// `PlayOrderLimits.batchProblem`) is a `permanent` error, sent nowhere.
    public func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder] {
        if let problem = PlayOrderLimits.batchProblem(orderIDs) { throw .permanent(problem) }
        let path = applicationPath(packageName) + "/orders:batchGet"
        let url = makeURL(path: path, query: orderIDs.map { ("orderIds", $0) })
        let body = try await perform(method: "GET", url: url, body: nil, label: "orders.batchget")
        do {
            return try JSONDecoder().decode(BatchOrdersWire.self, from: body).orders ?? []
        } catch {
            throw .permanent("orders.batchget: undecodable response (\(error))")
        }
    }

    private struct BatchOrdersWire: Decodable {
        var orders: [PlayOrder]?
    }

    /// The body of `purchases.subscriptions.acknowledge` (`developerPayload` is not sent).
    private struct AcknowledgeWire: Encodable {
        var externalAccountIds: PlayExternalAccountIDs
    }

    /// `startTime`, or the oldest start Google accepts when it is further back.
    public func effectiveVoidedStartTime(_ startTime: Date) -> Date {
        let lookbackSeconds = TimeInterval(Self.voidedLookbackDaysMax * 86_400) - Self.voidedLookbackMarginSeconds
        return max(startTime, clock.now().addingTimeInterval(-lookbackSeconds))
    }

    private struct VoidedWire: Decodable {
        struct Pagination: Decodable { var nextPageToken: String? }
        var voidedPurchases: [VoidedPurchase]?
        var tokenPagination: Pagination?
    }

    // MARK: - Requests

    private func perform(method: String, url: URL, body: Data?, label: String) async throws(PlayAPIError) -> Data {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        for refreshCount in 0...Self.unauthorizedRefreshCountMax {
            let token = try await tokenSource.accessToken()
            request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
            let response = try await executor.send(request, describedAs: label)
            if response.statusCode == 401, refreshCount < Self.unauthorizedRefreshCountMax {
                await tokenSource.invalidate(token)
                continue
            }
            if (200..<300).contains(response.statusCode) { return response.body }
            throw Self.error(for: response, label: label)
        }
        throw .unauthorized("\(label): HTTP 401 after \(Self.unauthorizedRefreshCountMax) token refresh")
    }

    /// The `PlayAPIError` for a final non-2xx response.
    static func error(for response: HTTPResponse, label: String) -> PlayAPIError {
        let detail = "\(label): HTTP \(response.statusCode)"
            + (PlayErrorBody.message(in: response.body).map { ": \($0)" } ?? "")
        switch response.statusCode {
        case 400, 410: return .invalidToken(detail)
        case 404: return .notFound(detail)
        case 401, 403: return .unauthorized(detail)
        case let status where RetryingHTTPExecutor.isRetryableStatus(status): return .retryable(detail)
        default: return .permanent(detail)
        }
    }

    // MARK: - URLs

    private func applicationPath(_ packageName: String) -> String {
        "/androidpublisher/v3/applications/" + FormEncoding.escape(packageName)
    }

    private func productURL(packageName: String, storeProductID: String, token: String, action: String?) -> URL {
        var path = applicationPath(packageName) + "/purchases/products/" + FormEncoding.escape(storeProductID)
            + "/tokens/" + FormEncoding.escape(token)
        if let action { path += ":" + action }
        return makeURL(path: path, query: [])
    }

    private func makeURL(path: String, query: [(String, String)]) -> URL {
        var root = baseURL.absoluteString
        while root.hasSuffix("/") { root.removeLast() }
        let queryString = query.isEmpty ? "" : "?" + FormEncoding.encode(query)
        // Every component is percent-encoded to the unreserved set, so the string always parses.
        return URL(string: root + path + queryString)!
    }
}
