import Foundation
import FulfillmentLedger

/// The one mapping of a Play voided purchase onto a ledger revocation event, shared by
/// `VoidedPurchasesSync` and `PlayNotificationProcessor` so both paths build the identical
/// event for the same void and the ledger applies it once.
public enum PlayVoidedEvent {
    /// The prefix of every Play voided-purchase event ID.
    public static let eventIDPrefix = "play-voided:"

    /// The event for a voided-purchases record: ID `play-voided:<token>:<voidedTimeMillis>`;
    /// `partialRefund` of `voidedQuantity` units when Google reports a voided quantity (it does
    /// only for quantity-based partial refunds), otherwise `fullRefund`; dated at the void.
    /// Nil when the record lacks a token or a well-formed voided time.
    public static func event(for voided: VoidedPurchase) -> RevocationEvent? {
        guard let token = voided.purchaseToken, !token.isEmpty, let millis = voided.voidedTimeMillis,
            let date = voided.voidedDate
        else { return nil }
        let partial = voided.voidedQuantity.map { $0 >= 1 } ?? false
        return RevocationEvent(
            eventID: eventIDPrefix + token + ":" + millis, store: .playStore, transactionID: token,
            kind: partial ? .partialRefund : .fullRefund, quantity: partial ? voided.voidedQuantity : nil,
            eventDate: date, reason: reason(voided))
    }

    /// `voidedSource S, voidedReason R`, when Google gave either.
    static func reason(_ voided: VoidedPurchase) -> String? {
        var parts: [String] = []
        if let source = voided.voidedSource { parts.append("voidedSource \(source)") }
        if let reason = voided.voidedReason { parts.append("voidedReason \(reason)") }
        return parts.isEmpty ? nil : parts.joined(separator: ", ")
    }
}
