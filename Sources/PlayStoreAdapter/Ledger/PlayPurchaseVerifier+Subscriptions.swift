import Foundation
import FulfillmentLedger

/// Subscriptions: a token is read with `purchases.subscriptionsv2.get`, and its latest paid
/// period becomes the verified transaction.
extension PlayPurchaseVerifier {
    /// The facts of the latest paid period of subscription `token`, as Google holds it now.
    ///
    /// A token Google does not know, a purchase without a line item for `storeProductID`, a
    /// paid state without `latestSuccessfulOrderId` or `expiryTime`, and a time or identifier out
    /// of range are `.invalid`. An outage or a refused account throws, so nothing is decided.
    func verifySubscription(token: String, storeProductID: String) async throws(LedgerError) -> VerificationResult {
        let purchase: SubscriptionPurchaseV2
        do {
            purchase = try await api.subscriptionPurchase(packageName: packageName, token: token)
        } catch {
            switch error {
            case .invalidToken, .notFound:
                return .invalid(reason: "Google Play does not know this subscription: \(error)")
            case .retryable, .unauthorized, .permanent:
                throw LedgerError.verifierUnavailable("Google Play purchases.subscriptionsv2.get failed: \(error)")
            }
        }
        guard let item = purchase.lineItem(for: storeProductID) else {
            return .invalid(reason: "Google Play's subscription has no line item for \(storeProductID)")
        }
        do throws(PlayPayloadError) {
            return try subscriptionFacts(purchase, item: item, token: token, storeProductID: storeProductID)
        } catch {
            return .invalid(reason: "Google Play's answer is out of range: \(error)")
        }
    }

    /// The verified transaction of `item`'s latest paid period. A pending or cancelled pending
    /// purchase has no period: it is reported pending or cancelled and grants nothing.
    func subscriptionFacts(
        _ purchase: SubscriptionPurchaseV2, item: SubscriptionPurchaseV2.LineItem, token: String, storeProductID: String
    ) throws(PlayPayloadError) -> VerificationResult {
        let state = Self.subscriptionState(purchase)
        let isTest = purchase.testPurchase != nil
        // A resubscription made in the Play Store is bound to the expired subscription's account.
        let account = purchase.boundAccountID
        let started = try purchase.checkedStartDate()
        guard state == .purchased else {
            return .verified(
                VerifiedTransaction(
                    store: .playStore, transactionID: token, storeProductID: storeProductID, accountBinding: account,
                    quantity: 1, state: state, environment: isTest ? .sandbox : environment,
                    purchaseDate: started ?? clock.now(), storeProductType: .autoRenewable))
        }
        let orderID = try PlayPayloadLimits.identifier(
            item.latestSuccessfulOrderId, field: "lineItems.latestSuccessfulOrderId",
            byteCountMax: PlayPayloadLimits.orderIDByteCountMax)
        guard let expiresAt = try item.checkedExpiryDate() else { throw .missingField("lineItems.expiryTime") }
        let replaced = try purchase.linkedPurchaseToken.map { linked throws(PlayPayloadError) in
            try PlayPayloadLimits.identifier(
                linked, field: "linkedPurchaseToken", byteCountMax: PlayPayloadLimits.purchaseTokenByteCountMax)
        }
        // The period's start is not in Google's answer; the subscription's start is never later
        // than it, so it can never make a newer state look stale. Google's answer is its state
        // now: a state that entitles says the period is running as of this read.
        let entitling = PlayNotificationProcessor.carriesPaidPeriod(purchase.state)
        return .verified(
            VerifiedTransaction(
                store: .playStore, transactionID: token, storeProductID: storeProductID, accountBinding: account,
                quantity: 1, state: .purchased, environment: isTest ? .sandbox : environment,
                purchaseDate: min(started ?? expiresAt, expiresAt), storeProductType: .autoRenewable,
                subscriptionPeriod: SubscriptionPeriodFacts(
                    periodID: orderID, chainID: token, expiresAt: expiresAt, replacedChainID: replaced,
                    stateObservedAt: entitling ? clock.now() : nil),
                orderID: orderID))
    }

    /// The purchase state of a subscription's latest period: purchased while a paid period
    /// exists (active, in grace, on hold, paused, canceled or expired), pending, cancelled for a
    /// pending purchase cancelled, and `playSubscriptionState:<raw>` (granting nothing) for a
    /// state the adapter does not know.
    public static func subscriptionState(_ purchase: SubscriptionPurchaseV2) -> PurchaseState {
        switch purchase.state {
        case .active, .inGracePeriod, .onHold, .paused, .canceled, .expired: .purchased
        case .pending: .pending
        case .pendingPurchaseCanceled: .cancelled
        case nil: PurchaseState(rawValue: "playSubscriptionState:\(purchase.subscriptionState ?? "missing")")
        }
    }
}
