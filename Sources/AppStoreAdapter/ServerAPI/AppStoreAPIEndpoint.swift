/// The App Store Server API endpoints the client calls, each with Apple's published rate limit.
public enum AppStoreAPIEndpoint: String, CaseIterable, Hashable, Sendable {
    /// `GET /inApps/v1/transactions/{transactionId}`.
    case getTransactionInfo
    /// `GET /inApps/v2/history/{transactionId}`.
    case getTransactionHistory
    /// `PUT /inApps/v2/transactions/consumption/{transactionId}` (API 1.19+).
    case sendConsumptionInformation
    /// `POST /inApps/v1/notifications/history`.
    case getNotificationHistory
    /// `GET /inApps/v2/refund/lookup/{transactionId}`.
    case getRefundHistory
    /// `POST /inApps/v1/transactions/{transactionId}/finish` (API 1.20+).
    case finishTransaction
    /// `GET /inApps/v1/subscriptions/{transactionId}`.
    case getAllSubscriptionStatuses
    /// `PUT /inApps/v1/transactions/{originalTransactionId}/appAccountToken` (API 1.16+).
    case setAppAccountToken
    /// `GET /inApps/v1/transactions/appTransactions/{transactionId}` (API 1.17+).
    case getAppTransactionInfo

    /// Apple's production limit in requests per second, from "Identifying rate limits" (Apple
    /// enforces it per app, over each hour). Sandbox allows `sandboxRateLimitPercent` of it.
    /// The two endpoints of 2025 keep to the 50 of Get Transaction Info, the figure of the
    /// other transaction endpoints; a 429 is still read and retried later.
    public var productionRequestsPerSecond: Int {
        switch self {
        case .getTransactionInfo, .getTransactionHistory, .sendConsumptionInformation, .getNotificationHistory,
            .finishTransaction, .getAllSubscriptionStatuses, .setAppAccountToken, .getAppTransactionInfo:
            50
        case .getRefundHistory: 10
        }
    }

    /// Sandbox limits are this percentage of production's.
    public static let sandboxRateLimitPercent = 10

    /// The limit the client keeps to in `environment`, at least one request a second.
    public func requestsPerSecond(in environment: AppStoreEnvironment) -> Int {
        guard environment != .production else { return productionRequestsPerSecond }
        return max(1, productionRequestsPerSecond * Self.sandboxRateLimitPercent / 100)
    }
}
