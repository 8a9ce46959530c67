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
///
/// With `attributionAccountID` set, a subscription is read (`purchases.subscriptionsv2.get`)
/// before it is acknowledged: one already acknowledged needs no call, and a resubscription the
/// player made in the Play Store (an `outOfAppPurchaseContext` and no account of its own) is
/// acknowledged with `externalAccountIds` naming the player it was granted to, so Google
/// attributes it to that account from then on.
public struct PlayFinisher: PlatformFinisher {
    /// The Play Developer API.
    public let api: any PlayPurchasesAPI
    /// The app's package name.
    public let packageName: String
    /// The obfuscated account ID Google is given for a player (the ledger's account binding,
    /// `LedgerConfiguration.accountBinding(for: .playStore, playerID:)`), or nil to attribute
    /// no out-of-app resubscription. An ID Google would refuse (over 64 characters) is not sent.
    public let attributionAccountID: (@Sendable (_ playerID: String) -> String?)?

    /// `consumptionState` of a consumed purchase.
    public static let consumedState = 1
    /// `acknowledgementState` of an acknowledged purchase.
    public static let acknowledgedState = 1

    /// Creates a finisher for `packageName`; `attributionAccountID` as the property says.
    public init(
        api: any PlayPurchasesAPI, packageName: String,
        attributionAccountID: (@Sendable (_ playerID: String) -> String?)? = nil
    ) {
        self.api = api
        self.packageName = packageName
        self.attributionAccountID = attributionAccountID
    }

    /// Consumes or acknowledges the purchase whose token is `request.key.transactionID`.
    public func finish(_ request: FinishRequest) async throws(LedgerError) {
        let token = request.storeTransactionID
        let productID = request.storeProductID
        let action = request.productKind == .consumable ? "consume" : "acknowledge"
        do {
            if request.productKind == .autoRenewable {
                try await acknowledgeSubscription(request)
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

    /// Acknowledges the subscription `request` names; with `attributionAccountID`, reads it
    /// first, skips one already acknowledged, and attributes an out-of-app resubscription.
    private func acknowledgeSubscription(_ request: FinishRequest) async throws(PlayAPIError) {
        let token = request.storeTransactionID
        guard let attributionAccountID else {
            return try await api.acknowledgeSubscription(
                packageName: packageName, storeProductID: request.storeProductID, token: token)
        }
        let purchase = try await api.subscriptionPurchase(packageName: packageName, token: token)
        if purchase.acknowledgementState == SubscriptionPurchaseV2.acknowledgementAcknowledged { return }
        var ids: PlayExternalAccountIDs?
        if purchase.isUnattributedOutOfAppPurchase {
            let candidate = PlayExternalAccountIDs(obfuscatedAccountId: attributionAccountID(request.playerID))
            // Acknowledging matters more than attributing: Google refunds what is not acknowledged.
            if candidate.isAcceptable { ids = candidate }
        }
        try await api.acknowledgeSubscription(
            packageName: packageName, storeProductID: request.storeProductID, token: token, externalAccountIDs: ids)
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
