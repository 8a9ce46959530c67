import AppStoreAdapter
import Foundation

/// A subscription's life after its purchase: failed renewals, grace periods, expiry and the
/// auto-renew switch, each returned as the signed notification Apple sends about it.
extension AppStoreSimulator {
    /// The renewal of the subscription `transactionID` belongs to fails at `date`: Apple keeps
    /// retrying, and with `gracePeriodDays` the player stays entitled that many days past the
    /// period's end. Returns DID_FAIL_TO_RENEW (subtype GRACE_PERIOD with a grace period).
    public func failToRenew(transactionID: String, gracePeriodDays: Int? = nil, at date: Date? = nil) throws -> String {
        let transaction = try storedTransaction(transactionID)
        let graceEnd = gracePeriodDays.map {
            (transaction.expiresDate ?? clock.now()).addingTimeInterval(TimeInterval($0) * 86_400)
        }
        state.withLock { state in
            state.renewals[transaction.originalTransactionID, default: RenewalState()].inBillingRetry = true
            state.renewals[transaction.originalTransactionID, default: RenewalState()].gracePeriodExpiresDate = graceEnd
        }
        return try notification(
            type: .didFailToRenew, subtype: graceEnd == nil ? nil : .gracePeriod, transactionID: transactionID, at: date)
    }

    /// The player upgrades the subscription `transactionID` belongs to to `productID`, a higher
    /// level of its group, at `date`. As on the App Store, the upgrade takes effect at once: a new
    /// transaction on the same chain (same `originalTransactionId`), a new `webOrderLineItemId`
    /// and a new period of `productID` from `date`, however long the old period had left (Apple
    /// refunds the rest of it prorated); the old transaction is marked `isUpgraded`. Send
    /// `notification(type: .didChangeRenewalPref, subtype: .upgrade, …)` about the new one next.
    public func upgrade(transactionID: String, to productID: String, at date: Date? = nil) throws -> SignedAppStoreTransaction {
        let now = date ?? clock.now()
        let payload = try state.withLock { state in
            guard var previous = state.transactions[transactionID] else { throw Self.unknown(transactionID) }
            guard previous.type == .autoRenewableSubscription else {
                throw AppStoreSimulatorError("transaction \(transactionID) is not an auto-renewable subscription")
            }
            previous.isUpgraded = true
            state.transactions[transactionID] = previous
            return Self.newPeriod(after: previous, productID: productID, at: now, reason: .purchase, in: &state)
        }
        return SignedAppStoreTransaction(jws: try sign(payload), payload: payload)
    }

    /// The grace period of the subscription `transactionID` belongs to ends without a renewal;
    /// Apple goes on retrying. Returns GRACE_PERIOD_EXPIRED.
    public func expireGracePeriod(transactionID: String, at date: Date? = nil) throws -> String {
        let transaction = try storedTransaction(transactionID)
        state.withLock { $0.renewals[transaction.originalTransactionID]?.gracePeriodExpiresDate = nil }
        return try notification(type: .gracePeriodExpired, transactionID: transactionID, at: date)
    }

    /// The subscription `transactionID` belongs to ends: the player turned auto-renew off
    /// (VOLUNTARY) or Apple stopped retrying (BILLING_RETRY). Returns EXPIRED.
    public func expire(
        transactionID: String, subtype: NotificationSubtype = .voluntary, at date: Date? = nil
    ) throws -> String {
        let transaction = try storedTransaction(transactionID)
        state.withLock { state in
            state.renewals[transaction.originalTransactionID, default: RenewalState()].inBillingRetry = false
            state.renewals[transaction.originalTransactionID, default: RenewalState()].gracePeriodExpiresDate = nil
        }
        return try notification(type: .expired, subtype: subtype, transactionID: transactionID, at: date)
    }

    /// The player turns auto-renew of the subscription `transactionID` belongs to on or off.
    /// Returns DID_CHANGE_RENEWAL_STATUS (AUTO_RENEW_ENABLED or AUTO_RENEW_DISABLED).
    public func setAutoRenew(transactionID: String, on: Bool, at date: Date? = nil) throws -> String {
        let transaction = try storedTransaction(transactionID)
        state.withLock { $0.renewals[transaction.originalTransactionID, default: RenewalState()].autoRenew = on }
        return try notification(
            type: .didChangeRenewalStatus, subtype: on ? .autoRenewEnabled : .autoRenewDisabled,
            transactionID: transactionID, at: date)
    }
}

extension AppStoreSimulator {
    /// The latest transaction and Apple's status of each auto-renewable subscription of the
    /// customer `transactionID` belongs to (the same `appAccountToken`), as Get All Subscription
    /// Statuses reports them at `date`: revoked, in its grace period, in billing retry, expired or
    /// active.
    public func subscriptionStatuses(
        ofCustomerOf transactionID: String, at date: Date? = nil
    ) throws -> [(latest: AppStoreSimulatedTransaction, status: SubscriptionStatus)] {
        let anchor = try storedTransaction(transactionID)
        let now = date ?? clock.now()
        let (owned, renewals) = state.withLock { state in
            (
                state.transactions.values.filter {
                    $0.type == .autoRenewableSubscription && $0.appAccountToken == anchor.appAccountToken
                },
                state.renewals
            )
        }
        let chains = Dictionary(grouping: owned, by: \.originalTransactionID)
        return chains.keys.sorted().compactMap { original in
            guard let latest = chains[original]?.max(by: { ($0.purchaseDate, $0.transactionID) < ($1.purchaseDate, $1.transactionID) })
            else { return nil }
            let renewal = renewals[original]
            let status: SubscriptionStatus
            if latest.revocationDate != nil {
                status = .revoked
            } else if let graceEnd = renewal?.gracePeriodExpiresDate, now < graceEnd {
                status = .billingGracePeriod
            } else if renewal?.inBillingRetry == true {
                status = .billingRetry
            } else if let expires = latest.expiresDate, expires <= now {
                status = .expired
            } else {
                status = .active
            }
            return (latest, status)
        }
    }
}
