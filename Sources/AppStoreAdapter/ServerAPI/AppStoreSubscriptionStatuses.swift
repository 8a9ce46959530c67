import Foundation

/// What Get All Subscription Statuses returned: the latest transaction of each of the customer's
/// auto-renewable subscriptions, with its status and renewal information, every JWS verified.
public struct AppStoreSubscriptionStatuses: Sendable {
    /// One subscription (`lastTransactionsItem`).
    public struct Item: Sendable {
        /// `subscriptionGroupIdentifier` of the group it belongs to.
        public var subscriptionGroupID: String
        /// `originalTransactionId`: the subscription's chain.
        public var originalTransactionID: String
        /// `status`, raw when Apple adds a value; nil when absent.
        public var status: SubscriptionStatus?
        /// `signedTransactionInfo`, verified: the latest transaction.
        public var transaction: AppStoreSignedTransaction
        /// `signedRenewalInfo`, verified; nil when absent.
        public var renewalInfo: JWSRenewalInfoDecodedPayload?
    }

    /// Every subscription of the customer, group by group, in Apple's order.
    public var items: [Item]

    /// Most subscriptions read from one answer; an answer with more is refused as invalid.
    public static let itemCountMax = 1_000
}

/// The wire shape of Get All Subscription Statuses (`StatusResponse`).
struct SubscriptionStatusesWire: Decodable {
    struct Group: Decodable {
        var subscriptionGroupIdentifier: String?
        var lastTransactions: [LastTransaction]?
    }

    struct LastTransaction: Decodable {
        var originalTransactionId: String?
        var status: SubscriptionStatus?
        var signedTransactionInfo: String?
        var signedRenewalInfo: String?
    }

    var data: [Group]?
}

extension AppStoreServerAPIClient {
    /// Get All Subscription Statuses: `GET /inApps/v1/subscriptions/{transactionId}`, for any
    /// transaction of the customer. A 404 is `nil`: Apple does not know the ID here.
    public func allSubscriptionStatuses(
        transactionID: String
    ) async throws(AppStoreServerAPIError) -> AppStoreSubscriptionStatuses? {
        let body: Data
        do {
            body = try await perform(
                .getAllSubscriptionStatuses, method: "GET", path: "/inApps/v1/subscriptions/" + Self.segment(transactionID))
        } catch {
            if case .rejected(let response) = error, response.httpStatusCode == 404 { return nil }
            throw error
        }
        let decoded = try decode(SubscriptionStatusesWire.self, from: body, endpoint: .getAllSubscriptionStatuses)
        var items: [AppStoreSubscriptionStatuses.Item] = []
        for group in decoded.data ?? [] {
            for last in group.lastTransactions ?? [] {
                guard items.count < AppStoreSubscriptionStatuses.itemCountMax else {
                    throw .invalidResponse("getAllSubscriptionStatuses: more than \(AppStoreSubscriptionStatuses.itemCountMax) subscriptions")
                }
                guard let original = last.originalTransactionId, let jws = last.signedTransactionInfo else {
                    throw .invalidResponse("getAllSubscriptionStatuses: a subscription without its transaction")
                }
                let signed = try verifiedTransaction(jws)
                guard signed.transaction.originalTransactionId == original else {
                    throw .invalidResponse("getAllSubscriptionStatuses: a transaction of another subscription")
                }
                var renewal: JWSRenewalInfoDecodedPayload?
                if let renewalJWS = last.signedRenewalInfo {
                    switch verifier.verifyRenewalInfo(renewalJWS) {
                    case .success(let payload): renewal = payload
                    case .failure(let error): throw .verification(error)
                    }
                }
                items.append(
                    AppStoreSubscriptionStatuses.Item(
                        subscriptionGroupID: group.subscriptionGroupIdentifier ?? "", originalTransactionID: original,
                        status: last.status, transaction: signed, renewalInfo: renewal))
            }
        }
        return AppStoreSubscriptionStatuses(items: items)
    }
}
