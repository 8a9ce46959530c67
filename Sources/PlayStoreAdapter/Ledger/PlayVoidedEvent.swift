import Foundation
import FulfillmentLedger

/// The one mapping of a Play voided purchase onto a ledger revocation event, shared by
/// `VoidedPurchasesSync` and `PlayNotificationProcessor` so both paths build the identical
/// event for the same void and the ledger applies it once.
public enum PlayVoidedEvent {
    /// The prefix of every Play voided-purchase event ID.
    public static let eventIDPrefix = "play-voided:"

    /// The event for a voided-purchases record, dated at the void, reason
    /// `voidedSource S, voidedReason R`:
    /// - with a `voidedQuantity` (a quantity-based partial refund): `partialRefund` of those
    ///   units, ID `play-voided:<token>:<voidedTimeMillis>:<orderId>` (`:<orderId>` left out when
    ///   Google gives none), so each partial refund of one purchase is its own event;
    /// - otherwise: `fullRefund`, ID `play-voided:<token>:<voidedTimeMillis>` (the ID earlier
    ///   versions recorded, so a re-read void is never applied again).
    ///
    /// Throws when the record lacks a token or a voided time, or carries a time, quantity or
    /// identifier out of range (`PlayPayloadLimits`); nothing may be applied from it then.
    public static func event(for voided: VoidedPurchase) throws(PlayPayloadError) -> RevocationEvent {
        let token = try PlayPayloadLimits.identifier(
            voided.purchaseToken, field: "purchaseToken", byteCountMax: PlayPayloadLimits.purchaseTokenByteCountMax)
        guard let milliseconds = try PlayPayloadLimits.milliseconds(voided.voidedTimeMillis, field: "voidedTimeMillis")
        else { throw .missingField("voidedTimeMillis") }
        let date = try voided.checkedVoidedDate()
        let quantity = try voided.checkedVoidedQuantity()
        let orderID = try voided.orderId.map { orderID throws(PlayPayloadError) in
            try PlayPayloadLimits.identifier(orderID, field: "orderId", byteCountMax: PlayPayloadLimits.orderIDByteCountMax)
        }
        let fullRefundID = eventIDPrefix + token + ":" + String(milliseconds)
        guard let quantity else {
            return RevocationEvent(
                eventID: fullRefundID, store: .playStore, transactionID: token, kind: .fullRefund, eventDate: date,
                reason: reason(voided))
        }
        return RevocationEvent(
            eventID: fullRefundID + (orderID.map { ":" + $0 } ?? ""), store: .playStore, transactionID: token,
            kind: .partialRefund, quantity: quantity, eventDate: date, reason: reason(voided))
    }

    /// The event for a voided-purchases record of a subscription period (`type=1`): a
    /// `fullRefund` of the period its `orderId` names (the period's ledger key), ID
    /// `play-voided:<orderId>:<voidedTimeMillis>`, dated at the void.
    ///
    /// Throws when the record lacks an order ID or a voided time, or carries one out of range.
    static func subscriptionPeriodEvent(for voided: VoidedPurchase) throws(PlayPayloadError) -> RevocationEvent {
        let orderID = try PlayPayloadLimits.identifier(
            voided.orderId, field: "orderId", byteCountMax: PlayPayloadLimits.orderIDByteCountMax)
        guard let milliseconds = try PlayPayloadLimits.milliseconds(voided.voidedTimeMillis, field: "voidedTimeMillis")
        else { throw .missingField("voidedTimeMillis") }
        return RevocationEvent(
            eventID: eventIDPrefix + orderID + ":" + String(milliseconds), store: .playStore, transactionID: orderID,
            kind: .fullRefund, eventDate: try voided.checkedVoidedDate(), reason: reason(voided))
    }

    /// Whether `voided` refunds a subscription period, keyed by its `orderId`, rather than a
    /// one-time purchase, keyed by its token. Google's list does not say which kind a record is:
    /// - an order ID that is the key of an `autoRenewable` record: a period the ledger granted;
    /// - a token that is the key of a record: a one-time purchase;
    /// - a token that is a subscription chain the ledger holds: a period not granted yet;
    /// - otherwise Google is asked: a token `purchases.subscriptionsv2.get` knows is a subscription.
    ///
    /// So a period voided before the ledger granted it waits for that period under its own key,
    /// and is taken back when the period is granted. An outage throws: no void is keyed by a guess.
    static func isSubscriptionPeriod(
        _ voided: VoidedPurchase, in ledger: Ledger, api: any PlayPurchasesAPI, packageName: String
    ) async throws(LedgerError) -> Bool {
        guard let orderID = voided.orderId, !orderID.isEmpty, orderID.utf8.count <= PlayPayloadLimits.orderIDByteCountMax
        else { return false }
        if let record = try await ledger.purchaseRecord(TransactionKey(store: .playStore, transactionID: orderID))?.0 {
            return record.productKind == .autoRenewable
        }
        guard let token = voided.purchaseToken, !token.isEmpty,
            token.utf8.count <= PlayPayloadLimits.purchaseTokenByteCountMax
        else { return false }
        let tokenKey = TransactionKey(store: .playStore, transactionID: token)
        let oneTime: (TransactionRecord, RefundState?)? = try await ledger.purchaseRecord(tokenKey)
        if oneTime != nil { return false }
        let chain: SubscriptionRecord? = try await ledger.subscription(tokenKey)
        if chain != nil { return true }
        do throws(PlayAPIError) {
            _ = try await api.subscriptionPurchase(packageName: packageName, token: token)
            return true
        } catch .invalidToken, .notFound {
            return false
        } catch {
            throw LedgerError.transactionSourceUnavailable(
                "Google Play purchases.subscriptionsv2.get failed for a voided purchase: \(error)")
        }
    }

    /// `voidedReason` 8, `Unacknowledged_purchase`: Google refunded a purchase that was not
    /// acknowledged (or consumed) within 3 days: the game granted it, or never saw it, but its
    /// finish did not reach Google in time.
    public static let unacknowledgedPurchaseReason = 8
    /// The name of the alert (`Ledger.alert`, metric code
    /// `storeAlert.playStore.unacknowledgedPurchaseVoided`) such a void raises when recorded.
    public static let unacknowledgedAlertName = "unacknowledgedPurchaseVoided"
    /// The end of the reason text of such a void, as `revocation_events.reason` holds it; `ledger
    /// doctor` counts these.
    public static let unacknowledgedReasonSuffix = "voidedReason \(unacknowledgedPurchaseReason)"

    /// Raises the unacknowledged-purchase alert when `outcome` recorded a void of `voidedReason`
    /// 8 now (not one recorded before). Returns whether it did.
    @discardableResult
    static func alertIfUnacknowledged(_ voided: VoidedPurchase, event: RevocationEvent, outcome: RevocationOutcome, ledger: Ledger)
        -> Bool
    {
        guard voided.voidedReason == unacknowledgedPurchaseReason, case .recorded = outcome else { return false }
        ledger.alert(
            store: .playStore, name: unacknowledgedAlertName,
            transaction: TransactionKey(store: .playStore, transactionID: event.transactionID),
            detail: "Google refunded order \(voided.orderId ?? "(none)") because it was not acknowledged within 3 days "
                + "(voidedReason 8): check that finishes reach Google (ledger doctor, ledger recover)")
        return true
    }

    /// `voidedSource S, voidedReason R`, when Google gave either.
    static func reason(_ voided: VoidedPurchase) -> String? {
        var parts: [String] = []
        if let source = voided.voidedSource { parts.append("voidedSource \(source)") }
        if let reason = voided.voidedReason { parts.append("voidedReason \(reason)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
