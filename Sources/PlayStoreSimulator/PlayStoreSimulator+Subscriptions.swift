import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// One subscription purchase token the simulated Google holds.
struct SimulatedSubscription {
    /// The purchase as `purchases.subscriptionsv2.get` reports it.
    var purchase: SubscriptionPurchaseV2
    /// The first order's ID; renewal N is `<base>..N` (from 0), as Google numbers them.
    var baseOrderID: String
    /// Renewals paid so far.
    var renewalCount: Int
    /// How long one period lasts.
    var periodSeconds: TimeInterval
}

/// Google Play subscriptions: bought, renewed, failed, held in grace or on hold, recovered,
/// paused, canceled and restarted, expired, revoked, replaced by an upgrade, and their periods
/// refunded; each read back as `purchases.subscriptionsv2.get` returns it, and each change
/// announced by the `subscriptionNotification` push Google sends.
extension PlayStoreSimulator {
    /// Buys `productID` for `accountID` and returns the new purchase token. The first period
    /// ends `periodSeconds` from now. `replacing` names the token of a subscription this one
    /// upgrades or downgrades: it becomes the new one's `linkedPurchaseToken`, and the old one
    /// expires now, as Google does with an immediate replacement. `pending` leaves the first
    /// payment pending (`SUBSCRIPTION_STATE_PENDING`, no period).
    @discardableResult
    public func subscribe(
        productID: String, accountID: String?, periodSeconds: TimeInterval = 30 * 86_400, replacing: String? = nil,
        pending: Bool = false, testPurchase: Bool = false
    ) -> String {
        let now = clock.now()
        return state.withLock { state in
            let serial = state.nextSerial
            state.nextSerial += 1
            let token = "play-subscription-\(serial)-\(productID)"
            let baseOrderID = "GPA.1111-0000-0000-\(String(format: "%05d", serial))"
            var purchase = SubscriptionPurchaseV2()
            purchase.kind = "androidpublisher#subscriptionPurchaseV2"
            purchase.regionCode = "US"
            purchase.startTime = pending ? nil : now.ledgerISO8601
            purchase.subscriptionState = (pending ? SubscriptionPurchaseV2.State.pending : .active).rawValue
            purchase.linkedPurchaseToken = replacing
            purchase.acknowledgementState = SubscriptionPurchaseV2.acknowledgementPending
            purchase.testPurchase = testPurchase ? SubscriptionPurchaseV2.TestPurchase() : nil
            purchase.externalAccountIdentifiers = .init(obfuscatedExternalAccountId: accountID)
            purchase.lineItems = [
                .init(
                    productId: productID, expiryTime: now.addingTimeInterval(periodSeconds).ledgerISO8601,
                    latestSuccessfulOrderId: pending ? nil : baseOrderID, autoRenewingPlan: .init(autoRenewEnabled: true))
            ]
            state.subscriptions[token] = SimulatedSubscription(
                purchase: purchase, baseOrderID: baseOrderID, renewalCount: 0, periodSeconds: periodSeconds)
            if let replacing { Self.change(replacing, in: &state) { $0.end(at: now) } }
            return token
        }
    }

    /// A resubscription made in the Play Store, outside the game, after `expiredToken` lapsed:
    /// a new token for the same product with no account IDs of its own, and an
    /// `outOfAppPurchaseContext` naming the expired token and its account IDs, as Google reports
    /// it. Nil when `expiredToken` is unknown or has not expired.
    public func resubscribeOutOfApp(expiredToken: String, periodSeconds: TimeInterval = 30 * 86_400) -> String? {
        guard let expired = storedSubscription(expiredToken), expired.state == .expired,
            let productID = expired.lineItems?.first?.productId
        else { return nil }
        let token = subscribe(productID: productID, accountID: nil, periodSeconds: periodSeconds)
        change(token) { subscription in
            subscription.purchase.externalAccountIdentifiers = nil
            subscription.purchase.outOfAppPurchaseContext = .init(
                expiredExternalAccountIdentifiers: expired.externalAccountIdentifiers, expiredPurchaseToken: expiredToken)
        }
        return token
    }

    /// The account IDs the acknowledgement of `token` attributed it to, if it carried any.
    public func subscriptionAttribution(_ token: String) -> PlayExternalAccountIDs? {
        state.withLock { $0.subscriptionAttributions[token] }
    }

    /// Pays the pending first period of `token`: active from now.
    public func confirmPendingSubscription(_ token: String) {
        let now = clock.now()
        change(token) { subscription in
            subscription.purchase.startTime = now.ledgerISO8601
            subscription.setState(.active)
            subscription.setLatest(orderID: subscription.baseOrderID, expiry: now.addingTimeInterval(subscription.periodSeconds))
        }
    }

    /// Cancels the pending first payment of `token` (`SUBSCRIPTION_STATE_PENDING_PURCHASE_CANCELED`).
    public func cancelPendingSubscription(_ token: String) {
        change(token) { $0.setState(.pendingPurchaseCanceled) }
    }

    /// A paid renewal: a new order `<base>..N`, the period ending one period after the later of
    /// the old end and now, and the subscription active.
    public func renewSubscription(_ token: String) {
        let now = clock.now()
        change(token) { subscription in
            let end = max(subscription.expiry ?? now, now).addingTimeInterval(subscription.periodSeconds)
            subscription.setLatest(orderID: "\(subscription.baseOrderID)..\(subscription.renewalCount)", expiry: end)
            subscription.renewalCount += 1
            subscription.setState(.active)
        }
    }

    /// A failed renewal: in grace (access until the grace ends, reported as the line item's
    /// new `expiryTime`) when `graceSeconds` is given, else on hold at once.
    public func failSubscriptionRenewal(_ token: String, graceSeconds: TimeInterval? = nil) {
        change(token) { subscription in
            guard let graceSeconds else { return subscription.setState(.onHold) }
            subscription.setState(.inGracePeriod)
            if let end = subscription.expiry { subscription.setExpiry(end.addingTimeInterval(graceSeconds)) }
        }
    }

    /// The grace period ended unpaid: on hold, no access.
    public func holdSubscription(_ token: String) { change(token) { $0.setState(.onHold) } }

    /// Payment recovered from grace or hold, or a pause ended: a new paid period from now.
    public func recoverSubscription(_ token: String) {
        let now = clock.now()
        change(token) { subscription in
            subscription.setLatest(
                orderID: "\(subscription.baseOrderID)..\(subscription.renewalCount)",
                expiry: now.addingTimeInterval(subscription.periodSeconds))
            subscription.renewalCount += 1
            subscription.setState(.active)
        }
    }

    /// The player paused the subscription: no access until it resumes.
    public func pauseSubscription(_ token: String) { change(token) { $0.setState(.paused) } }

    /// Auto-renew turned off (`SUBSCRIPTION_STATE_CANCELED`); access lasts until `expiryTime`.
    public func cancelSubscription(_ token: String) {
        change(token) { subscription in
            subscription.setState(.canceled)
            subscription.setAutoRenew(false)
        }
    }

    /// The player restored a canceled subscription before it lapsed.
    public func restartSubscription(_ token: String) {
        change(token) { subscription in
            subscription.setState(.active)
            subscription.setAutoRenew(true)
        }
    }

    /// The subscription lapsed.
    public func expireSubscription(_ token: String) {
        change(token) { $0.setState(.expired) }
    }

    /// Google (or the developer) revoked the subscription: it expires now.
    public func revokeSubscription(_ token: String) {
        let now = clock.now()
        change(token) { $0.end(at: now) }
    }

    /// Refunds the period `orderID` of `token` (its latest when nil) and lists the void, as
    /// `voidedpurchases.list` with `type=1` reports it. Returns the voided record.
    @discardableResult
    public func voidSubscriptionPeriod(_ token: String, orderID: String? = nil, reason: Int = 1) -> VoidedPurchase {
        let now = clock.now()
        return state.withLock { state in
            let subscription = state.subscriptions[token]
            var record = VoidedPurchase()
            record.kind = "androidpublisher#voidedPurchase"
            record.purchaseToken = token
            record.orderId = orderID ?? subscription?.purchase.lineItems?.first?.latestSuccessfulOrderId
            record.purchaseTimeMillis = subscription?.purchase.startTime.flatMap {
                try? Date($0, strategy: .iso8601).ledgerMilliseconds
            }.map(String.init)
            record.voidedTimeMillis = String(now.ledgerMilliseconds)
            record.voidedSource = 0
            record.voidedReason = reason
            state.voided.append(record)
            if let order = record.orderId { state.subscriptionVoidOrderIDs.insert(order) }
            return record
        }
    }

    /// The subscription as Google holds it now.
    public func storedSubscription(_ token: String) -> SubscriptionPurchaseV2? {
        state.withLock { $0.subscriptions[token]?.purchase }
    }

    /// Whether the subscription was acknowledged.
    public func isSubscriptionAcknowledged(_ token: String) -> Bool {
        state.withLock { $0.subscriptions[token]?.purchase.acknowledgementState == SubscriptionPurchaseV2.acknowledgementAcknowledged }
    }

    /// The Pub/Sub push body of a `subscriptionNotification` of `kind` for `token`.
    public func subscriptionBody(
        for token: String, kind: DeveloperNotification.SubscriptionNotification.Kind, messageID: String? = nil
    ) -> Data {
        var notification = DeveloperNotification()
        notification.subscriptionNotification = DeveloperNotification.SubscriptionNotification(
            notificationType: kind.rawValue, purchaseToken: token)
        return envelope(notification, messageID: messageID)
    }

    // MARK: PlayPurchasesAPI

    /// `purchases.subscriptionsv2.get`.
    public func subscriptionPurchase(packageName: String, token: String) async throws(PlayAPIError) -> SubscriptionPurchaseV2 {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.subscriptionGet, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            guard let subscription = state.subscriptions[token] else {
                throw PlayAPIError.invalidToken("unknown subscription token")
            }
            return subscription.purchase
        }
    }

    /// `purchases.subscriptions.acknowledge`: repeating it succeeds; a pending or cancelled
    /// purchase cannot be acknowledged. `externalAccountIDs` are taken only for an out-of-app
    /// resubscription without account IDs of its own (HTTP 400 otherwise, like IDs Google
    /// refuses); they then become the purchase's `externalAccountIdentifiers`. Acknowledging
    /// removes the `outOfAppPurchaseContext`, as Google documents.
    public func acknowledgeSubscription(
        packageName: String, storeProductID: String, token: String, externalAccountIDs: PlayExternalAccountIDs?
    ) async throws(PlayAPIError) {
        try state.withLock { state throws(PlayAPIError) in
            try Self.begin(.subscriptionAcknowledge, &state)
            guard packageName == self.packageName else { throw PlayAPIError.notFound("no app \(packageName)") }
            guard let subscription = state.subscriptions[token] else {
                throw PlayAPIError.invalidToken("unknown subscription token")
            }
            guard subscription.purchase.lineItem(for: storeProductID) != nil else {
                throw PlayAPIError.notFound("token is not for \(storeProductID)")
            }
            let unpaid: [SubscriptionPurchaseV2.State?] = [.pending, .pendingPurchaseCanceled]
            guard !unpaid.contains(subscription.purchase.state) else {
                throw PlayAPIError.invalidToken("the subscription is not paid")
            }
            if let externalAccountIDs {
                guard externalAccountIDs.isAcceptable, subscription.purchase.isUnattributedOutOfAppPurchase else {
                    throw PlayAPIError.invalidToken("externalAccountIds can only be set for resubscription purchases")
                }
                state.subscriptionAttributions[token] = externalAccountIDs
                state.subscriptions[token]?.purchase.externalAccountIdentifiers = .init(
                    obfuscatedExternalAccountId: externalAccountIDs.obfuscatedAccountId,
                    obfuscatedExternalProfileId: externalAccountIDs.obfuscatedProfileId)
            }
            state.subscriptions[token]?.purchase.acknowledgementState = SubscriptionPurchaseV2.acknowledgementAcknowledged
            // Google: the context "will be removed after you acknowledge the subscription".
            state.subscriptions[token]?.purchase.outOfAppPurchaseContext = nil
        }
    }

    private func change(_ token: String, _ body: (inout SimulatedSubscription) -> Void) {
        state.withLock { Self.change(token, in: &$0, body) }
    }

    private static func change(_ token: String, in state: inout State, _ body: (inout SimulatedSubscription) -> Void) {
        guard var subscription = state.subscriptions[token] else { return }
        body(&subscription)
        state.subscriptions[token] = subscription
    }
}

extension SimulatedSubscription {
    /// The current period's end.
    var expiry: Date? {
        purchase.lineItems?.first?.expiryTime.flatMap { try? Date($0, strategy: .iso8601) }
    }

    mutating func setState(_ state: SubscriptionPurchaseV2.State) { purchase.subscriptionState = state.rawValue }

    mutating func setExpiry(_ date: Date) { purchase.lineItems?[0].expiryTime = date.ledgerISO8601 }

    mutating func setAutoRenew(_ enabled: Bool) { purchase.lineItems?[0].autoRenewingPlan = .init(autoRenewEnabled: enabled) }

    mutating func setLatest(orderID: String, expiry: Date) {
        purchase.lineItems?[0].latestSuccessfulOrderId = orderID
        setExpiry(expiry)
    }

    /// Expired now, without renewing.
    mutating func end(at date: Date) {
        setState(.expired)
        setAutoRenew(false)
        if let current = expiry, current > date { setExpiry(date) }
    }
}
