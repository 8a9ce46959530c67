import Foundation
import FulfillmentLedger

/// What an App Store Server Notification about an auto-renewable subscription did.
public typealias AppStoreSubscriptionEffect = SubscriptionEffect

/// How App Store Server Notifications V2 of subscription types drive a subscription chain.
///
/// | type (subtype) | effect |
/// |---|---|
/// | SUBSCRIBED, DID_RENEW (incl. BILLING_RECOVERY), OFFER_REDEEMED, DID_CHANGE_RENEWAL_PREF (UPGRADE) | the transaction's period is fulfilled for the chain's player; the chain is active until it ends |
/// | DID_FAIL_TO_RENEW (GRACE_PERIOD) | `gracePeriod` until the renewal info's `gracePeriodExpiresDate`: still entitled |
/// | DID_FAIL_TO_RENEW | `billingRetry`: not entitled while Apple retries |
/// | GRACE_PERIOD_EXPIRED | `billingRetry` |
/// | EXPIRED (any subtype) | `expired` |
/// | DID_CHANGE_RENEWAL_STATUS, DID_CHANGE_RENEWAL_PREF | the auto-renew status from the renewal info |
/// | RENEWAL_EXTENDED | the latest period ends at the transaction's new `expiresDate` |
///
/// Every notification also sets the auto-renew status when its renewal info has one. Refunds,
/// revokes and reversals go through `AppStoreRevocationMapping`.
enum AppStoreSubscriptionMapping {
    /// Whether a notification of `type` carries a new paid period to fulfil.
    static func carriesPeriod(_ type: NotificationTypeV2, _ subtype: NotificationSubtype?) -> Bool {
        switch type {
        case .subscribed, .didRenew, .offerRedeemed: true
        case .didChangeRenewalPref: subtype == .upgrade
        default: false
        }
    }

    /// The chain update a notification of `type` reports, or nil for a type that is not about a
    /// subscription's state.
    static func update(
        _ notification: ResponseBodyV2DecodedPayload, type: NotificationTypeV2, chain: TransactionKey, now: Date
    ) -> SubscriptionUpdate? {
        let subtype = notification.subtype
        let renewal = notification.renewalInfo
        var update = SubscriptionUpdate(
            chain: chain, willAutoRenew: renewal?.autoRenewStatus.map { $0 == .on },
            signedAt: notification.signedDate?.date ?? now,
            reason: [type.rawValue, subtype?.rawValue].compactMap { $0 }.joined(separator: " "))
        switch type {
        case .didFailToRenew where subtype == .gracePeriod:
            update.state = .gracePeriod
            update.gracePeriodExpiresAt = renewal?.gracePeriodExpiresDate?.date
        case .didFailToRenew, .gracePeriodExpired:
            update.state = .billingRetry
        case .expired:
            update.state = .expired
        case .renewalExtended:
            update.expiresAt = notification.transaction?.expiresDate?.date
        case .subscribed, .didRenew, .offerRedeemed, .didChangeRenewalStatus, .didChangeRenewalPref:
            break
        default:
            return nil
        }
        return update
    }
}

extension AppStoreNotificationProcessor {
    /// The outcome of a subscription notification about a verified auto-renewable transaction,
    /// or nil when the notification is not one. A transaction without its period's fields is
    /// refused, not logged; a period the ledger refuses leaves the chain as it was (the
    /// notification's renewal info and state are not applied), since refused means unchanged.
    func subscriptionOutcome(
        _ notification: ResponseBodyV2DecodedPayload, type: NotificationTypeV2
    ) async throws(LedgerError) -> AppStoreNotificationOutcome? {
        guard let transaction = notification.transaction, transaction.type == .autoRenewableSubscription,
            let facts = AppStoreTransactionVerifier.facts(transaction, defaultEnvironment: signedDataVerifier.configuration.environment)
        else { return nil }
        guard let period = facts.subscriptionPeriod else {
            let placeholder = TransactionKey(store: .appStore, transactionID: facts.transactionID)
            guard AppStoreSubscriptionMapping.update(notification, type: type, chain: placeholder, now: ledger.clock.now()) != nil
            else { return nil }
            return .rejected(AppStoreVerificationError(AppStoreTransactionVerifier.missingPeriodField(transaction)))
        }
        let chainKey = TransactionKey(store: .appStore, transactionID: period.chainID)
        guard let update = AppStoreSubscriptionMapping.update(notification, type: type, chain: chainKey, now: ledger.clock.now())
        else { return nil }
        guard let chain = try await ledger.subscription(chainKey) else {
            // The ledger cannot tell whose it is before the game delivers the first period.
            return .subscription(
                AppStoreSubscriptionEffect(
                    period: nil, update: .unknownChain, note: "subscription \(chainKey) unknown: awaiting the game's first delivery"))
        }
        var effect = AppStoreSubscriptionEffect(period: nil, update: nil, note: "")
        var notes: [String] = []
        if AppStoreSubscriptionMapping.carriesPeriod(type, notification.subtype), let jws = notification.data?.signedTransactionInfo {
            // Fulfilled like any delivery, for the chain's player: verified again, granted once.
            let submission = TransactionSubmission(
                store: .appStore, transactionID: facts.transactionID, storeProductID: facts.storeProductID,
                playerID: chain.playerID, quantity: facts.quantity, payload: jws)
            let outcome = try await ledger.fulfill(submission, via: .notification)
            effect.period = outcome
            notes.append("period \(period.periodID) \(outcome.name)")
            if let rejection = outcome.rejection {
                effect.note = "period \(period.periodID) rejected: \(rejection); subscription unchanged"
                return .subscription(effect)
            }
        }
        let updated = try await ledger.updateSubscription(update)
        effect.update = updated
        notes.append(Self.describe(updated))
        effect.note = notes.joined(separator: "; ")
        return .subscription(effect)
    }

    static func describe(_ outcome: SubscriptionUpdateOutcome) -> String {
        switch outcome {
        case .applied(let chain): "subscription \(chain.state) until \(chain.entitledUntil.ledgerISO8601)"
        case .stale: "subscription update stale (signed before the chain's last change)"
        case .unchanged: "subscription unchanged"
        case .unknownChain: "subscription unknown"
        }
    }
}
