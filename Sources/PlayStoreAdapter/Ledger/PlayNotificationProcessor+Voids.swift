import Foundation
import FulfillmentLedger

/// Voided-purchase notifications: applied only once Google confirms the void.
extension PlayNotificationProcessor {
    /// Applies a one-time product void that Google confirms; records anything else as unconfirmed.
    func revoke(
        _ voided: DeveloperNotification.VoidedPurchaseNotification, eventDate: Date, messageID: String
    ) async throws(LedgerError) -> Applied {
        typealias Voided = DeveloperNotification.VoidedPurchaseNotification
        guard let token = voided.purchaseToken, !token.isEmpty else { return .logged("logged: a void without a token") }
        if voided.productType == Voided.subscriptionProductType {
            return try await revokeSubscriptionPeriod(voided, token: token, eventDate: eventDate)
        }
        if let listed = try await lookUpVoid(token: token, around: eventDate, refundType: voided.refundType) {
            let event: RevocationEvent
            do throws(PlayPayloadError) {
                event = try PlayVoidedEvent.event(for: listed)
            } catch {
                return .unconfirmed("Google lists the void with \(error); nothing applied")
            }
            return try await applied(event, listed: listed)
        }
        guard voided.refundType == Voided.fullRefundType else {
            // Only Google's list names the units of a partial refund; guessing could take back
            // more than was refunded. The sync applies it once Google lists it.
            return .unconfirmed(
                "refund type \(voided.refundType.map(String.init) ?? "missing") not listed by voidedpurchases.list yet; "
                    + "left to the voided purchases sync")
        }
        if let unconfirmed = try await fullRefundUnconfirmed(token: token) { return .unconfirmed(unconfirmed) }
        let event = RevocationEvent(
            eventID: PlayVoidedEvent.eventIDPrefix + messageID, store: .playStore, transactionID: token,
            kind: .fullRefund, eventDate: eventDate, reason: "refundType 1, confirmed by purchases.products.get")
        return try await applied(event, listed: nil)
    }

    /// Applies a subscription period's void once `voidedpurchases.list` (`type=1`) lists it for
    /// the notification's order; until then it is unconfirmed and left to the sync.
    private func revokeSubscriptionPeriod(
        _ voided: DeveloperNotification.VoidedPurchaseNotification, token: String, eventDate: Date
    ) async throws(LedgerError) -> Applied {
        guard let orderID = voided.orderId, !orderID.isEmpty else {
            return .unconfirmed("a subscription void without an order ID names no period; left to the voided purchases sync")
        }
        guard
            let listed = try await lookUpVoid(
                token: token, around: eventDate, refundType: voided.refundType, includeSubscriptions: true,
                where: { $0.orderId == orderID })
        else { return .unconfirmed("period \(orderID) not listed by voidedpurchases.list yet; left to the voided purchases sync") }
        let event: RevocationEvent
        do throws(PlayPayloadError) {
            event = try PlayVoidedEvent.subscriptionPeriodEvent(for: listed)
        } catch {
            return .unconfirmed("Google lists the void with \(error); nothing applied")
        }
        let outcome = try await ledger.applyRevocation(event)
        PlayVoidedEvent.alertIfUnacknowledged(listed, event: event, outcome: outcome, ledger: ledger)
        return .revocation(outcome, nil)
    }

    /// Applies `event` (built from `listed`, Google's record, when there is one) and checks the
    /// ledger's refunded units against Google's afterwards.
    private func applied(_ event: RevocationEvent, listed: VoidedPurchase?) async throws(LedgerError) -> Applied {
        let outcome = try await ledger.applyRevocation(event)
        if let listed { PlayVoidedEvent.alertIfUnacknowledged(listed, event: event, outcome: outcome, ledger: ledger) }
        guard outcome.record != nil else { return .revocation(outcome, nil) }
        let checker = PlayRefundChecker(api: api, packageName: packageName, ledger: ledger)
        return .revocation(outcome, try await checker.check(token: event.transactionID))
    }

    /// Nil when `purchases.products.get` shows the purchase canceled (`purchaseState` 1) or
    /// wholly refunded (`refundableQuantity` 0); otherwise why the void stays unconfirmed.
    /// An outage or a refused account throws, so the push is redelivered.
    private func fullRefundUnconfirmed(token: String) async throws(LedgerError) -> String? {
        let key = TransactionKey(store: .playStore, transactionID: token)
        guard let record = try await ledger.purchaseRecord(key)?.0 else {
            return "not listed by voidedpurchases.list yet and the ledger holds no purchase to look up; "
                + "left to the voided purchases sync"
        }
        let purchase: ProductPurchase
        do {
            purchase = try await api.productPurchase(packageName: packageName, storeProductID: record.storeProductID, token: token)
        } catch {
            switch error {
            case .invalidToken, .notFound: return "Google does not know the purchase: \(error)"
            default: throw LedgerError.verifierUnavailable("Google Play purchases.products.get failed: \(error)")
            }
        }
        if purchase.purchaseState == ProductPurchase.State.canceled.rawValue { return nil }
        do throws(PlayPayloadError) {
            if try purchase.checkedRefundableQuantity() == 0 { return nil }
        } catch {
            return "purchases.products.get answered \(error)"
        }
        return "not listed by voidedpurchases.list, and purchases.products.get shows purchaseState "
            + "\(purchase.purchaseState.map(String.init) ?? "missing"), refundableQuantity "
            + "\(purchase.refundableQuantity.map(String.init) ?? "missing"); left to the voided purchases sync"
    }

    /// The voided-purchases record of `token` listed from shortly before `date`: one of the
    /// notification's refund type (a partial refund has a `voidedQuantity`) when listed, the
    /// closest to `date` among those. Only "nothing there" is an answer; an outage throws.
    private func lookUpVoid(
        token: String, around date: Date, refundType: Int?, includeSubscriptions: Bool = false,
        where matches: (VoidedPurchase) -> Bool = { _ in true }
    ) async throws(LedgerError) -> VoidedPurchase? {
        let start = date.addingTimeInterval(-voidLookupWindowSeconds)
        let wantsPartial = refundType == DeveloperNotification.VoidedPurchaseNotification.partialRefundType
        var pageToken: String?
        var found: (record: VoidedPurchase, rank: (Int, TimeInterval))?
        for _ in 0..<max(1, voidLookupPageCountMax) {
            let page: VoidedPurchasesPage
            do {
                page = try await api.voidedPurchases(
                    packageName: packageName, startTime: start, endTime: nil, pageToken: pageToken,
                    maxResults: Self.voidLookupPageSize, includeQuantityBasedPartialRefund: true,
                    includeSubscriptions: includeSubscriptions)
            } catch {
                switch error {
                case .invalidToken, .notFound: return nil
                default: throw LedgerError.verifierUnavailable("Google Play voidedpurchases.list failed: \(error)")
                }
            }
            for candidate in page.voidedPurchases where candidate.purchaseToken == token && matches(candidate) {
                guard let time = candidate.voidedDate else { continue }
                let typeMismatch = (candidate.voidedQuantity != nil) == wantsPartial ? 0 : 1
                let rank = (typeMismatch, abs(time.timeIntervalSince(date)))
                if found.map({ rank < $0.rank }) ?? true { found = (candidate, rank) }
            }
            pageToken = page.nextPageToken.flatMap { $0.isEmpty ? nil : $0 }
            if pageToken == nil { break }
        }
        return found?.record
    }
}
