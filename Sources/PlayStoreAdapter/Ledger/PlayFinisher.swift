import Foundation
import FulfillmentLedger

/// The ledger's finish port for Google Play: consumes a consumable, acknowledges a
/// non-consumable (`purchases.products`), and acknowledges a subscription's period
/// (`purchases.subscriptions.acknowledge`, by the purchase token the period was delivered with;
/// only a new subscription needs it, and a repeat succeeds). The pipeline calls it only after
/// the grant has committed; Google refunds a purchase or subscription that is not acknowledged
/// or consumed within 3 days, so an overdue finish shows in `ledger doctor`.
///
/// Every failure throws `LedgerError.finishFailed`, so the finish stays in the outbox:
/// - `retryable: …` for a timeout, 429 or 5xx; the next fulfillment replay or `recover()` retries it;
/// - `permanent: …` for a refused token, unknown purchase, refused credentials or any other
///   permanent error. It stays in the outbox (listed with its message by `ledger doctor`, and
///   overdue after `finishWarningAgeSeconds`) for an operator to look at.
///
/// The port must be idempotent: recovery may repeat a finish that already succeeded at Google
/// but was not yet marked. Google refuses to consume a purchase twice, so after a permanent
/// failure the finisher reads the purchase back and reports success when Google says it is
/// already consumed (or acknowledged). Nothing else counts as success.
public struct PlayFinisher: PlatformFinisher {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name.
    public let packageName: String

    /// `consumptionState` of a consumed purchase.
    public static let consumedState = 1
    /// `acknowledgementState` of an acknowledged purchase.
    public static let acknowledgedState = 1

    /// Creates a finisher for `packageName`.
    public init(api: any PlayPurchasesAPI, packageName: String) {
        self.api = api
        self.packageName = packageName
    }

    /// Consumes or acknowledges the purchase whose token is `request.key.transactionID`.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {
        let token = request.storeTransactionID
        let productID = request.storeProductID
        let action = request.productKind == .consumable ? "consume" : "acknowledge"
        do {
            if request.productKind == .autoRenewable {
                try await api.acknowledgeSubscription(packageName: packageName, storeProductID: productID, token: token)
            } else if request.productKind == .consumable {
                try await api.consume(packageName: packageName, storeProductID: productID, token: token)
            } else {
                try await api.acknowledge(packageName: packageName, storeProductID: productID, token: token)
            }
        } catch {
            if error.isRetryable {
                throw LedgerError.finishFailed("retryable: Google Play \(action) of \(productID) failed: \(error)")
            }
            if await alreadyDone(request) { return }
            throw LedgerError.finishFailed("permanent: Google Play \(action) of \(productID) failed: \(error)")
        }
    }

    /// Whether Google already reports the purchase consumed (consumable) or acknowledged.
    private func alreadyDone(_ request: FinishRequest) async -> Bool {
        if request.productKind == .autoRenewable {
            let subscription = try? await api.subscriptionPurchase(packageName: packageName, token: request.storeTransactionID)
            return subscription?.acknowledgementState == SubscriptionPurchaseV2.acknowledgementAcknowledged
        }
        guard
            let purchase = try? await api.productPurchase(
                packageName: packageName, storeProductID: request.storeProductID, token: request.storeTransactionID)
        else { return false }
        if request.productKind == .consumable { return purchase.consumptionState == Self.consumedState }
        return purchase.acknowledgementState == Self.acknowledgedState
    }
}
