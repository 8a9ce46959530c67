import Foundation
import FulfillmentLedger

/// Subscription notifications: the push only says that something changed, so the subscription
/// is read back from `purchases.subscriptionsv2.get` and the ledger follows what Google holds.
///
/// | Google's state after the push | effect |
/// |---|---|
/// | ACTIVE, IN_GRACE_PERIOD, CANCELED | the latest paid order (`latestSuccessfulOrderId`) is fulfilled once, for the chain's player |
/// | ACTIVE | active until `expiryTime`, auto-renew as the plan says |
/// | CANCELED | active until `expiryTime`, auto-renew off |
/// | IN_GRACE_PERIOD | `gracePeriod` until `expiryTime`: still entitled |
/// | ON_HOLD | `billingRetry`: not entitled |
/// | PAUSED | `paused`: not entitled |
/// | EXPIRED | `expired` |
/// | PENDING, PENDING_PURCHASE_CANCELED | nothing: no period was paid |
///
/// A `SUBSCRIPTION_REVOKED` push revokes the chain, whatever the state: its entitlements end
/// now (a refund of the period's rewards comes as a voided purchase). Each update is dated at
/// the push's `eventTimeMillis`, so a late push never overwrites what a newer one applied.
extension PlayNotificationProcessor {
    /// Applies a subscription notification for `token`.
    func applySubscription(
        _ notification: DeveloperNotification.SubscriptionNotification, token: String, eventDate: Date
    ) async throws(LedgerError) -> Applied {
        let purchase: SubscriptionPurchaseV2
        do {
            purchase = try await api.subscriptionPurchase(packageName: packageName, token: token)
        } catch {
            switch error {
            case .invalidToken, .notFound: return .unresolved("the subscription could not be read: \(error)")
            default: throw LedgerError.verifierUnavailable("Google Play purchases.subscriptionsv2.get failed: \(error)")
            }
        }
        // The line item of a subscription the catalog sells, as the verifier reads it; with
        // add-ons, the others are not the ledger's. A chain whose product has left the catalog
        // still follows Google through its first line item.
        let sold = ledger.catalog.playSubscriptionStoreProductIDs
        let items = purchase.lineItems ?? []
        guard let item = items.first(where: { $0.productId.map(sold.contains) ?? false }) ?? items.first,
            let storeProductID = item.productId
        else {
            return .unresolved("Google's subscription has no line item")
        }
        let chain = TransactionKey(store: .playStore, transactionID: token)
        var period: FulfillmentOutcome?
        if Self.carriesPaidPeriod(purchase.state), notification.kind != .revoked {
            guard let playerID = try await owner(of: chain, purchase) else {
                return .unresolved("no player for account \(purchase.boundAccountID ?? "(none)")")
            }
            period = try await ledger.fulfill(
                PlayPurchaseVerifier.submission(token: token, storeProductID: storeProductID, playerID: playerID),
                via: .notification)
        }
        let change: SubscriptionUpdate?
        do throws(PlayPayloadError) {
            change = try Self.update(notification, purchase: purchase, item: item, chain: chain, eventDate: eventDate)
        } catch {
            return .unresolved("Google's subscription carries \(error)")
        }
        var update: SubscriptionUpdateOutcome?
        // A period the ledger refused leaves the chain as it was: refused means unchanged.
        if let change, period?.rejection == nil { update = try await ledger.updateSubscription(change) }
        let note = [
            notification.typeName, purchase.subscriptionState ?? "no state",
            purchase.outOfAppPurchaseContext == nil ? nil : "out-of-app resubscription",
            period.map { "period \($0.rejection.map { "rejected: \($0)" } ?? $0.name)" },
            update.map { "update \($0.name)" },
        ].compactMap { $0 }.joined(separator: "; ")
        return .subscription(SubscriptionEffect(period: period, update: update, note: note))
    }

    /// The player a subscription's period goes to: the chain's owner, else the owner of the chain
    /// it replaces, else the player `playerResolver` maps the purchase's account ID to. A
    /// resubscription made in the Play Store carries no account: it goes to the owner of the
    /// expired chain its `outOfAppPurchaseContext` names (Google: use that token only through a
    /// link the game stored), else to the player the expired subscription's account maps to.
    private func owner(of chain: TransactionKey, _ purchase: SubscriptionPurchaseV2) async throws(LedgerError) -> String? {
        if let owner = try await ledger.subscription(chain)?.playerID { return owner }
        if let owner = try await chainOwner(purchase.linkedPurchaseToken) { return owner }
        if let owner = playerResolver(purchase.externalAccountIdentifiers?.obfuscatedExternalAccountId) { return owner }
        guard purchase.isUnattributedOutOfAppPurchase, let context = purchase.outOfAppPurchaseContext else { return nil }
        if let owner = try await chainOwner(context.expiredPurchaseToken) { return owner }
        guard let expiredAccount = context.expiredExternalAccountIdentifiers?.obfuscatedExternalAccountId,
            !expiredAccount.isEmpty
        else { return nil }
        return playerResolver(expiredAccount)
    }

    /// The player of the chain `token` names, nil for no token, one out of range, or one the
    /// ledger does not hold (an identifier it refuses cannot name a chain it stored).
    private func chainOwner(_ token: String?) async throws(LedgerError) -> String? {
        guard let token, !token.isEmpty, token.utf8.count <= PlayPayloadLimits.purchaseTokenByteCountMax else { return nil }
        do {
            return try await ledger.subscription(TransactionKey(store: .playStore, transactionID: token))?.playerID
        } catch .invalidArgument {
            return nil
        }
    }

    /// Whether Google's state holds a period that is paid and running.
    static func carriesPaidPeriod(_ state: SubscriptionPurchaseV2.State?) -> Bool {
        switch state {
        case .active, .inGracePeriod, .canceled: true
        case .onHold, .paused, .expired, .pending, .pendingPurchaseCanceled, nil: false
        }
    }

    /// The chain's update for Google's state after the push (see the table above); nil when the
    /// state carries none.
    static func update(
        _ notification: DeveloperNotification.SubscriptionNotification, purchase: SubscriptionPurchaseV2,
        item: SubscriptionPurchaseV2.LineItem, chain: TransactionKey, eventDate: Date
    ) throws(PlayPayloadError) -> SubscriptionUpdate? {
        let expiry = try item.checkedExpiryDate()
        let reason = "\(notification.typeName) \(purchase.subscriptionState ?? "")"
        func update(_ state: SubscriptionState, expiresAt: Date? = nil, grace: Date? = nil, renews: Bool? = nil)
            -> SubscriptionUpdate
        {
            SubscriptionUpdate(
                chain: chain, state: state, expiresAt: expiresAt, gracePeriodExpiresAt: grace, willAutoRenew: renews,
                signedAt: eventDate, reason: reason)
        }
        if notification.kind == .revoked { return update(.revoked, renews: false) }
        switch purchase.state {
        case .active: return update(.active, expiresAt: expiry, renews: item.autoRenewingPlan?.autoRenewEnabled)
        case .canceled: return update(.active, expiresAt: expiry, renews: false)
        case .inGracePeriod: return update(.gracePeriod, grace: expiry)
        case .onHold: return update(.billingRetry)
        case .paused: return update(.paused)
        case .expired: return update(.expired, renews: false)
        case .pending, .pendingPurchaseCanceled, nil: return nil
        }
    }
}
