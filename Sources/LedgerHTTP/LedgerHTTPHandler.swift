import AppStoreAdapter
import Foundation
import FulfillmentLedger
import PlayStoreAdapter
import SteamAdapter
import StripeAdapter

/// The ledger's HTTP surface, framework-agnostic: a `LedgerHTTPRequest` in, a
/// `LedgerHTTPResponse` out, so any server (Vapor, Hummingbird, `ledger serve`, a test) mounts
/// it in a few lines. Every outcome is answered in the ledger's JSON form with the status of
/// `LedgerHTTPStatus`; nothing here throws.
///
/// Routes (Docs/Integration.md, "HTTP handlers"):
///
/// | Route | What |
/// |---|---|
/// | `POST /purchases` | a client's purchase (`PurchaseSubmissionBody`), through `Ledger.fulfill` |
/// | `POST /operations` | the game's spend or grant (`EconomyOperation`), `Ledger.apply`, once by `operationID` |
/// | `POST /revocations` | a refund, revoke or reversal (`RevocationEvent`), `Ledger.applyRevocation`, once by `eventID` |
/// | `GET /players/{playerID}` | `Ledger.player` |
/// | `GET /players/{playerID}/entitlements` | `Ledger.entitlements` |
/// | `GET /players/{playerID}/eligibility?product=ID&quantity=N` | `Ledger.eligibility`, before payment |
/// | `GET /players/{playerID}/subscriptions?at=TIME` | `Ledger.subscriptions` |
/// | `GET /players/{playerID}/history?after=N&limit=M` | a page of the player's events, `Ledger.history` |
/// | `GET /lookup/{id}` | a purchase found by any store ID, `Ledger.lookup` |
/// | `POST /players/{playerID}/reset` | Reset Game, `Ledger.resetPlayer` |
/// | `POST /players/{playerID}/restore` | the store's list of the player's purchases, `Ledger.restore` |
/// | `POST /players/{playerID}/reconcile` | the player against Apple's histories or Google's orders (`AppStoreReconciler`, `PlayReconciler`) |
/// | `GET /appstore/app-transactions/{transactionID}` | Get App Transaction Info: the customer's `appTransactionId` |
/// | `POST /appstore/transactions/{originalTransactionID}/app-account-token` | Set App Account Token to a player's token |
/// | `GET /changes?after=N&limit=M` | a page of the change feed, `Ledger.changes(after:limit:)` |
/// | `POST /appstore/notifications` | App Store Server Notifications V2 (`{"signedPayload": …}`) |
/// | `POST /playstore/notifications` | a Pub/Sub push of a Play RTDN, authenticated by its own token |
/// | `POST /stripe/webhooks` | a Stripe webhook, authenticated by its `Stripe-Signature` |
/// | `POST /steam/orders` | a Steam order (`SteamOrderRequest`): InitTxn, `SteamOrderProcessor.start` |
/// | `POST /steam/orders/{orderID}/authorization` | the player's answer in the overlay: FinalizeTxn, then the grant |
/// | `POST /steam/sync` | Steam's GetReport since the watermark: recovery and refunds (`SteamReportSync`) |
/// | `GET /healthz` | 200 while the process runs |
/// | `GET /readyz` | 200 when the ledger answers a read, else 503 |
/// | `GET /metrics` | `LedgerMetrics` in Prometheus text, when configured |
/// | `GET /openapi.json` | the OpenAPI 3.1 document of these routes (`LedgerOpenAPIDocument`) |
public struct LedgerHTTPHandler: Sendable {
    /// The ledger the routes read and change.
    public let ledger: Ledger
    /// Applies App Store notifications; nil answers that route 404.
    public let appStoreNotifications: AppStoreNotificationProcessor?
    /// Applies Play pushes; nil answers that route 404.
    public let playNotifications: PlayNotificationProcessor?
    /// The App Store Server API, for `POST /players/{playerID}/reconcile` (store `appStore`),
    /// `GET /appstore/app-transactions/{id}` and `POST /appstore/transactions/{id}/app-account-token`;
    /// nil answers them 404.
    public let appStoreServerAPI: AppStoreServerAPIClient?
    /// Reconciles players with Google Play's orders (`POST /players/{playerID}/reconcile`,
    /// store `playStore`); nil answers it 404.
    public let playReconciler: PlayReconciler?
    /// Applies Stripe webhooks (`POST /stripe/webhooks`); nil answers that route 404.
    public let stripeWebhooks: StripeWebhookProcessor?
    /// Sells through Steam (`POST /steam/orders`, `/steam/orders/{orderID}/authorization`,
    /// `/steam/sync`); nil answers those routes 404.
    public let steamOrders: SteamOrderProcessor?
    /// Renders `GET /metrics`; nil answers it 404. Pass the same instance as the ledger's observer.
    public let metrics: LedgerMetrics?
    /// More Prometheus text appended to `GET /metrics` (with `metrics` set): the HTTP server's
    /// own counters, which `ledger serve` adds (`LedgerHTTPServerStatistics.prometheusText()`).
    public let additionalMetrics: (@Sendable () -> String)?
    /// The bearer token the game-facing routes (`/purchases`, `/operations`, `/revocations`,
    /// `/players`, `/lookup`, `/changes`, the App Store account routes and `/steam`) require; nil
    /// requires none. Store pushes authenticate themselves (Apple's signature, Pub/Sub's token,
    /// Stripe's signature).
    public let bearerToken: String?
    /// Most query items a target may carry; the routes take two at most.
    static let queryItemCountMax = 8
    /// Largest body a route decodes, in bytes; larger ones are answered 413. Give the HTTP
    /// server the same limit so that it refuses such a body before reading it.
    public let bodyByteCountMax: Int

    /// Default body limit: 256 KiB, far above a signed transaction or notification (a few KiB).
    public static let defaultBodyByteCountMax = 256 * 1024
    /// Longest player ID read from a path, in bytes (the ledger refuses longer ones anyway).
    static let playerIDByteCountMax = 1_024
    /// Longest ID `GET /lookup/{id}` reads from its path, in bytes: above the ledger's 4,096 (a
    /// Play purchase token's), so that an ID between the two is answered 400 `argument.invalid`
    /// by the ledger, as the contract says, and only a longer one is no route.
    static let lookupIDByteCountMax = 16_384

    /// Creates the handler.
    public init(
        ledger: Ledger, appStoreNotifications: AppStoreNotificationProcessor? = nil,
        playNotifications: PlayNotificationProcessor? = nil, metrics: LedgerMetrics? = nil, bearerToken: String? = nil,
        bodyByteCountMax: Int = LedgerHTTPHandler.defaultBodyByteCountMax,
        additionalMetrics: (@Sendable () -> String)? = nil, appStoreServerAPI: AppStoreServerAPIClient? = nil,
        playReconciler: PlayReconciler? = nil, stripeWebhooks: StripeWebhookProcessor? = nil,
        steamOrders: SteamOrderProcessor? = nil
    ) {
        precondition(bodyByteCountMax > 0, "a body limit is positive")
        precondition(bearerToken.map { !$0.isEmpty } ?? true, "an empty bearer token would accept anyone")
        self.ledger = ledger
        self.appStoreNotifications = appStoreNotifications
        self.playNotifications = playNotifications
        self.appStoreServerAPI = appStoreServerAPI
        self.playReconciler = playReconciler
        self.stripeWebhooks = stripeWebhooks
        self.steamOrders = steamOrders
        self.metrics = metrics
        self.bearerToken = bearerToken
        self.bodyByteCountMax = bodyByteCountMax
        self.additionalMetrics = additionalMetrics
    }

    /// Answers one request.
    public func handle(_ request: LedgerHTTPRequest) async -> LedgerHTTPResponse {
        let segments = request.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let route = LedgerHTTPRoute(segments) else {
            return .error(.notFound, "no route \(request.path)")
        }
        // HEAD is GET without the body (RFC 9110, 9.3.2); the server leaves the body out.
        let method = request.method == "HEAD" && route.method == "GET" ? "GET" : request.method
        guard method == route.method else {
            return .error(
                .methodNotAllowed, "\(request.path) takes \(route.method), not \(request.method)",
                headers: [("Allow", route.method)])
        }
        guard request.body.count <= bodyByteCountMax else {
            return .error(.bodyTooLarge, "the body is larger than \(bodyByteCountMax) bytes")
        }
        if route.isGameFacing, let refusal = authorizationRefusal(request) { return refusal }
        return await answer(route, request)
    }

    /// Runs the route.
    private func answer(_ route: LedgerHTTPRoute, _ request: LedgerHTTPRequest) async -> LedgerHTTPResponse {
        do throws(LedgerError) {
            switch route {
            case .purchases: return try await purchase(request.body)
            case .operations: return try await operation(request.body)
            case .revocations: return try await revocation(request.body)
            case .eligibility(let playerID): return try await eligibility(playerID, request)
            case .subscriptions(let playerID): return try await subscriptions(playerID, request)
            case .history(let playerID): return try await history(playerID, request)
            case .restore(let playerID): return try await restore(playerID, request.body)
            case .accountToken(let playerID): return try await accountToken(playerID, request.body)
            case .reconcile(let playerID): return try await reconcile(playerID, request.body)
            case .appTransaction(let transactionID): return await appTransaction(transactionID)
            case .appAccountToken(let originalTransactionID): return try await appAccountToken(originalTransactionID, request.body)
            case .reset(let playerID):
                try await ledger.resetPlayer(playerID)
                return .json(200, ["reset": playerID])
            case .player(let playerID): return .json(200, try await ledger.player(playerID))
            case .entitlements(let playerID): return .json(200, try await ledger.entitlements(playerID))
            case .lookup(let id): return .json(200, try await ledger.lookup(id))
            case .changes: return try await changes(request)
            case .appStoreNotifications: return try await appStoreNotification(request.body)
            case .playNotifications: return try await playNotification(request)
            case .stripeWebhooks: return try await stripeWebhook(request)
            case .steamOrders: return try await steamOrder(request.body)
            case .steamAuthorization(let orderID): return try await steamAuthorization(orderID, request.body)
            case .steamSync: return try await steamSync()
            case .health: return .text(200, "ok\n")
            case .openAPI:
                return LedgerHTTPResponse(
                    status: 200, headers: [("Content-Type", "application/json")], body: Data(LedgerOpenAPIDocument.text.utf8))
            case .ready:
                _ = try await ledger.pendingFinishGauge()
                return .text(200, "ready\n")
            case .metrics:
                guard let metrics else { return notConfigured("/metrics") }
                return .text(
                    200, metrics.prometheusText(pending: try await ledger.pendingFinishGauge()) + (additionalMetrics?() ?? ""),
                    contentType: "text/plain; version=0.0.4; charset=utf-8")
            }
        } catch {
            return .failure(error)
        }
    }

    private func purchase(_ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        switch PurchaseSubmissionBody.submission(from: body) {
        case .failure(let refusal): return .invalidInput(refusal)
        case .success(let submission):
            let outcome = try await ledger.fulfill(submission)
            return .json(LedgerHTTPStatus.purchase(outcome), outcome)
        }
    }

    /// `GET /changes?after=N&limit=M`: one page of the change feed (`LedgerChangePage`).
    private func changes(_ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        let page: (after: Int64, limit: Int)
        switch Self.page(request, limitDefault: Ledger.changePageCountMax) {
        case .failure(let refusal): return refusal.response(400)
        case .success(let value): page = value
        }
        return .json(200, try await ledger.changes(after: page.after, limit: page.limit))
    }

    /// `GET /players/{playerID}/history?after=N&limit=M`: one page of the player's events.
    private func history(_ playerID: String, _ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        let page: (after: Int64, limit: Int)
        switch Self.page(request, limitDefault: Ledger.historyPageCountMax) {
        case .failure(let refusal): return refusal.response(400)
        case .success(let value): page = value
        }
        return .json(200, try await ledger.history(playerID, after: page.after, limit: page.limit))
    }

    /// The `after` and `limit` query parameters of a paged route, whole numbers; the ledger
    /// checks their ranges.
    static func page(_ request: LedgerHTTPRequest, limitDefault: Int) -> Result<(after: Int64, limit: Int), LedgerErrorBody> {
        let query: [String: String]
        switch Self.query(request, allowed: ["after", "limit"]) {
        case .failure(let refusal): return .failure(refusal)
        case .success(let values): query = values
        }
        guard let after = query["after"].map({ Int64($0) }) ?? 0 else {
            return .failure(LedgerErrorBody(.invalidQuery, "after must be a whole number"))
        }
        guard let limit = query["limit"].map({ Int($0) }) ?? limitDefault else {
            return .failure(LedgerErrorBody(.invalidQuery, "limit must be a whole number"))
        }
        return .success((after, limit))
    }

    /// The query parameters of `request`, each at most once and named in `allowed`.
    static func query(_ request: LedgerHTTPRequest, allowed: Set<String>) -> Result<[String: String], LedgerErrorBody> {
        let items = request.queryItems
        guard items.count <= Self.queryItemCountMax else {
            return .failure(LedgerErrorBody(.invalidQuery, "at most \(Self.queryItemCountMax) query parameters"))
        }
        var values: [String: String] = [:]
        for (name, value) in items {
            guard allowed.contains(name) else {
                let expected = allowed.sorted().joined(separator: ", ")
                return .failure(LedgerErrorBody(.invalidQuery, "unknown query parameter \(name); expected \(expected)"))
            }
            guard values.updateValue(value, forKey: name) == nil else {
                return .failure(LedgerErrorBody(.invalidQuery, "query parameter \(name) appears twice"))
            }
        }
        return .success(values)
    }

    private func appStoreNotification(_ body: Data) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = appStoreNotifications else { return notConfigured("/appstore/notifications") }
        struct Envelope: Decodable { let signedPayload: String }
        let envelope: Envelope
        do throws(StrictJSONError) {
            envelope = try StrictJSON.decode(Envelope.self, from: body)
        } catch {
            return .invalidInput(error.body(expected: "{\"signedPayload\": \"<JWS>\"}"))
        }
        let outcome = try await processor.process(envelope.signedPayload)
        return .json(LedgerHTTPStatus.appStoreNotification(outcome), outcome)
    }

    private func playNotification(_ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = playNotifications else { return notConfigured("/playstore/notifications") }
        var headers: [String: String] = [:]
        if let authorization = request.header("Authorization") { headers["Authorization"] = authorization }
        let outcome = try await processor.process(headers: headers, body: request.body)
        return .json(LedgerHTTPStatus.playNotification(outcome), outcome)
    }

    /// `POST /stripe/webhooks`: a Stripe webhook, authenticated by its `Stripe-Signature`.
    private func stripeWebhook(_ request: LedgerHTTPRequest) async throws(LedgerError) -> LedgerHTTPResponse {
        guard let processor = stripeWebhooks else { return notConfigured("/stripe/webhooks") }
        let outcome = try await processor.process(signatureHeader: request.header("Stripe-Signature"), body: Array(request.body))
        return .json(outcome.httpStatus, outcome)
    }

    func notConfigured(_ path: String) -> LedgerHTTPResponse {
        .error(.notFound, "\(path) is not configured on this server")
    }

    /// 401 unless the request carries `Authorization: Bearer <bearerToken>`, compared in time
    /// independent of where the first difference is.
    private func authorizationRefusal(_ request: LedgerHTTPRequest) -> LedgerHTTPResponse? {
        guard let bearerToken else { return nil }
        // The scheme is case-insensitive (RFC 9110, 11.1): "bearer" is "Bearer".
        let presented = request.header("Authorization").flatMap { value -> Substring? in
            value.prefix(7).lowercased() == "bearer " ? value.dropFirst(7).drop { $0 == " " } : nil
        }
        if let presented, Self.constantTimeEqual(Array(presented.utf8), Array(bearerToken.utf8)) { return nil }
        return .error(.unauthorized, "a valid bearer token is required", headers: [("WWW-Authenticate", "Bearer")])
    }

    /// Whether two byte strings are equal, in time independent of where they first differ.
    package static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool { ConstantTime.equal(lhs, rhs) }
}
