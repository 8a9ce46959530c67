import Foundation
import FulfillmentLedger

/// What processing one Google Play Real-time Developer Notification push did.
public enum PlayNotificationOutcome: Hashable, Sendable {
    /// The push did not carry a valid Google-signed OIDC token for this endpoint; nothing in it
    /// was read, nothing changed and its `messageId` was not recorded.
    case unauthenticated(PubSubPushAuthenticationError)
    /// The authenticated body was malformed, for another package or out of range; nothing
    /// changed or was recorded.
    case rejected(PlayPushRejection)
    /// This Pub/Sub `messageId` was processed before; nothing changed now.
    case alreadyProcessed(StoreNotificationRecord)
    /// A one-time product purchased or canceled: the purchase, read back from Google, went
    /// through the pipeline.
    case fulfillment(FulfillmentOutcome)
    /// The purchase or its player could not be resolved; recorded, nothing granted.
    /// The client's own submission or `recover()` still fulfills the purchase.
    case unresolved(StoreNotificationRecord)
    /// A subscription notification, read back from `purchases.subscriptionsv2.get`: the latest
    /// paid period fulfilled (once) and the chain's state as Google now holds it.
    case subscription(SubscriptionEffect)
    /// A void Google confirmed, applied as a revocation event, and how the ledger's refunded
    /// units then compare with Google's (nil when the ledger holds no purchase for the token).
    case revocation(RevocationOutcome, refundCheck: PlayRefundCheck?)
    /// A void Google does not confirm yet (not listed by `voidedpurchases.list`, and
    /// `purchases.products.get` does not show it refunded): recorded, nothing changed.
    /// `VoidedPurchasesSync` applies it once Google lists it.
    case unconfirmed(StoreNotificationRecord)
    /// A test notification, a subscription void or an unknown type: accepted and logged. A
    /// chargeback review is logged too when the processor has no `refundReviewSender`.
    case logged(StoreNotificationRecord)
    /// A chargeback review (`pendingRefundReviewNotification`) answered by the processor's
    /// `refundReviewSender`, and the notification's record.
    case refundReview(PlayRefundReviewOutcome, StoreNotificationRecord)

    /// Success answered to Pub/Sub: it acknowledges the message.
    public static let acknowledgedHTTPStatus = 204

    /// The HTTP status to answer the push with: the authentication failure's (401 or 403, so
    /// Pub/Sub redelivers and the failure stays visible), else 204. A thrown error is answered
    /// with a 5xx instead (see `PlayNotificationProcessor.process(headers:body:)`).
    public var httpStatus: Int {
        if case .unauthenticated(let failure) = self { return failure.httpStatus }
        return Self.acknowledgedHTTPStatus
    }
}
