import Foundation

/// What the Play Developer API can fail with, as values a caller can act on.
public enum PlayAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The purchase token is malformed, expired or not for this app (HTTP 400/410): permanent.
    case invalidToken(String)
    /// No such purchase or product (HTTP 404): permanent.
    case notFound(String)
    /// The service account is not allowed, or its token was refused (HTTP 401/403).
    case unauthorized(String)
    /// A timeout, 429 or 5xx that persisted through the bounded retries: retry later.
    case retryable(String)
    /// Any other failure that retrying will not fix.
    case permanent(String)

    /// Whether a later retry may succeed.
    public var isRetryable: Bool {
        if case .retryable = self { return true }
        return false
    }

    /// The stable code of the kind (Docs/ErrorCodes.md), never renumbered.
    public var code: Int {
        switch self {
        case .invalidToken: 8301
        case .notFound: 8302
        case .unauthorized: 8303
        case .retryable: 8304
        case .permanent: 8305
        }
    }

    /// `kind: detail`.
    public var description: String {
        switch self {
        case .invalidToken(let detail): "invalidToken: \(detail)"
        case .notFound(let detail): "notFound: \(detail)"
        case .unauthorized(let detail): "unauthorized: \(detail)"
        case .retryable(let detail): "retryable: \(detail)"
        case .permanent(let detail): "permanent: \(detail)"
        }
    }
}

/// The Play Developer API calls the ledger needs. `PlayDeveloperAPIClient` implements it over
/// HTTPS; `PlayStoreSimulator` (the `PlayStoreSimulator` testing product) implements it in memory.
public protocol PlayPurchasesAPI: Sendable {
    /// `purchases.products.get`.
    func productPurchase(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
        -> ProductPurchase
    /// `purchases.products.acknowledge` (non-consumables).
    func acknowledge(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
    /// `purchases.products.consume` (consumables).
    func consume(packageName: String, storeProductID: String, token: String) async throws(PlayAPIError)
    /// One page of `voidedpurchases.list`, `startTime` at most 30 days back: one-time products
    /// only (`type=0`), or subscriptions too (`type=1`) when `includeSubscriptions` is true.
    /// Google lists quantity-based partial refunds (with `voidedQuantity`) only when
    /// `includeQuantityBasedPartialRefund` is true; the ledger always asks for them.
    func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool, includeSubscriptions: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage
    /// `purchases.subscriptionsv2.get`: the subscription `token` names, as Google holds it now.
    func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2
    /// `purchases.subscriptions.acknowledge` of a new subscription (renewals need none). Google
    /// cancels and refunds a subscription left unacknowledged for three days. `externalAccountIDs`
    /// attributes a resubscription made outside the app to the player (Google refuses them on any
    /// other purchase); nil sends none.
    func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError)
    /// `orders.reviewrefund`: the game's answer to a chargeback Google asked it to review. Google
    /// records the first answer and ignores later ones, still answering OK.
    func reviewRefund(packageName: String, orderID: String, request: PlayRefundReviewRequest) async throws(PlayAPIError)
    /// `purchases.productsv2.getproductpurchasev2`: a one-time purchase with its line items
    /// (Play Billing Library 8's purchase options and offers).
    func productPurchaseV2(packageName: String, token: String) async throws(PlayAPIError) -> ProductPurchaseV2
    /// `orders.get`: one order, with its amounts and refunds.
    func order(packageName: String, orderID: String) async throws(PlayAPIError) -> PlayOrder
    /// `orders.batchget`: 1 to 1,000 distinct orders (`PlayOrderLimits.batchCountMax`). Google
    /// fails the whole request when any of them is unknown or another app's.
    func orders(packageName: String, orderIDs: [String]) async throws(PlayAPIError) -> [PlayOrder]
}

/// The Orders API's limits.
public enum PlayOrderLimits {
    /// Most order IDs in one `orders.batchget` request.
    public static let batchCountMax = 1_000

    /// Nil when `orderIDs` is a batch Google takes (1 to `batchCountMax` distinct, non-empty IDs
    /// within `PlayPayloadLimits.orderIDByteCountMax`), else why not.
    public static func batchProblem(_ orderIDs: [String]) -> String? {
        guard (1...batchCountMax).contains(orderIDs.count) else {
            return "orders.batchget takes 1 to \(batchCountMax) order IDs, not \(orderIDs.count)"
        }
        guard Set(orderIDs).count == orderIDs.count else { return "orders.batchget takes distinct order IDs" }
        let limit = PlayPayloadLimits.orderIDByteCountMax
        guard orderIDs.allSatisfy({ !$0.isEmpty && $0.utf8.count <= limit }) else {
            return "an order ID is empty or longer than \(limit) bytes"
        }
        return nil
    }
}

extension PlayPurchasesAPI {
    /// `purchases.subscriptions.acknowledge` without account IDs.
    public func acknowledgeSubscription(packageName: String, storeProductID: String, token: String)
        async throws(PlayAPIError)
    {
        try await acknowledgeSubscription(
            packageName: packageName, storeProductID: storeProductID, token: token, externalAccountIDs: nil)
    }

    /// One page of `voidedpurchases.list` for one-time products only (`type=0`).
    public func voidedPurchases(
        packageName: String, startTime: Date, endTime: Date?, pageToken: String?, maxResults: Int,
        includeQuantityBasedPartialRefund: Bool
    ) async throws(PlayAPIError) -> VoidedPurchasesPage {
        try await voidedPurchases(
            packageName: packageName, startTime: startTime, endTime: endTime, pageToken: pageToken, maxResults: maxResults,
            includeQuantityBasedPartialRefund: includeQuantityBasedPartialRefund, includeSubscriptions: false)
    }
}
