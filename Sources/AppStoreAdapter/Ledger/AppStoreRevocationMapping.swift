import FulfillmentLedger
import Foundation

/// How a verified `REFUND`, `REVOKE` or `REFUND_REVERSED` notification becomes the ledger's
/// revocation event.
///
/// | Notification | `revocationType` | Event |
/// |---|---|---|
/// | `REFUND` | `REFUND_PRORATED` | `partialRefund` of `refundedUnits(quantity:revocationPercentage:)` units, cumulative |
/// | `REFUND` | `FAMILY_REVOKE` | `revoke` |
/// | `REFUND` | `REFUND_FULL`, absent, or one Apple adds later | `fullRefund` |
/// | `REVOKE` | any | `revoke` |
/// | `REFUND_REVERSED` | any | `refundReversed` |
///
/// Apple's percentage describes the whole transaction, not one refund, so a prorated event
/// carries the units refunded so far (`quantityIsCumulative`): the ledger takes only what goes
/// beyond the units it already took, and never more than was granted.
public enum AppStoreRevocationMapping {
    /// What a revocation notification asks of the ledger.
    enum Decision: Hashable, Sendable {
        /// Apply this event.
        case apply(RevocationEvent)
        /// A prorated refund of 0 %: nothing to take back; the notification is only logged.
        case nothingToTake(String)
        /// The payload lacks what the mapping needs; the notification is refused.
        case refuse(AppStorePayloadError)
    }

    /// The units of a `quantity`-unit purchase that `revocationPercentage` milliunits refund:
    /// `quantity × percentage ÷ 100000`, rounded half up, at least 1 when the percentage is above
    /// zero, at most `quantity`. 1 of 3 (33333) is 1 unit, 2 of 3 (66666) 2 units, 50 % of 3
    /// (1.5 units) 2 units, 0.015 % of 3 still 1 unit; a one-unit purchase (every non-consumable)
    /// refunded by any percentage above zero gives up its one unit.
    public static func refundedUnits(quantity: Int, revocationPercentage: Int32) -> Int {
        let quantity = max(0, quantity)
        let percentage = Int(min(max(0, revocationPercentage), AppStorePayloadLimits.revocationPercentageMax))
        let whole = Int(AppStorePayloadLimits.revocationPercentageMax)
        guard percentage > 0, quantity > 0 else { return 0 }
        // Split so that no product can overflow, whatever the quantity: q × p = (q ÷ w) × p × w + (q mod w) × p.
        let (wholeUnits, rest) = quantity.quotientAndRemainder(dividingBy: whole)
        let units = wholeUnits * percentage + (rest * percentage + whole / 2) / whole
        return min(quantity, max(1, units))
    }

    /// The decision for a notification of `type` about the verified `transaction`, or nil when
    /// the type is not a refund, revoke or reversal.
    static func decision(
        type: NotificationTypeV2, transaction: JWSTransactionDecodedPayload, transactionID: String,
        notificationUUID: String, signedDate: Date?, now: Date
    ) -> Decision? {
        let kind: RevocationKind
        var quantity: Int?
        var reason = transaction.revocationReason.map { "revocationReason \($0)" }
        switch type {
        case .refundReversed: kind = .refundReversed
        case .revoke: kind = .revoke
        case .refund where transaction.revocationType == .familyRevoke: kind = .revoke
        case .refund where transaction.revocationType == .refundProrated:
            guard let percentage = transaction.revocationPercentage else {
                return .refuse(.missingField("revocationPercentage"))
            }
            let units = refundedUnits(quantity: transaction.quantity ?? 1, revocationPercentage: percentage)
            guard units > 0 else { return .nothingToTake("prorated refund of \(percentage) milliunits: nothing taken back") }
            kind = .partialRefund
            quantity = units
            reason = [reason, "REFUND_PRORATED \(percentage) milliunits"].compactMap { $0 }.joined(separator: "; ")
        case .refund: kind = .fullRefund
        default: return nil
        }
        // A take-back is dated by Apple's revocation; a reversal has none of its own.
        let date = (kind == .refundReversed ? nil : transaction.revocationDate?.date) ?? signedDate ?? now
        // A subscription's refund names its period, whose record is keyed by the period's ID: that
        // ID is the purchase, so the event names no original. The originalTransactionId is the
        // chain, shared by every period; a refund waiting under it would never meet its period.
        let periodRecordID = AppStoreTransactionVerifier.subscriptionRecordID(transaction)
        if periodRecordID == nil, transaction.type == .autoRenewableSubscription {
            return .refuse(AppStoreTransactionVerifier.missingPeriodField(transaction))
        }
        return .apply(
            RevocationEvent(
                eventID: notificationUUID, store: .appStore, transactionID: periodRecordID ?? transactionID,
                originalTransactionID: periodRecordID == nil ? transaction.originalTransactionId : nil, kind: kind,
                quantity: quantity, quantityIsCumulative: kind == .partialRefund, eventDate: date, reason: reason))
    }
}
