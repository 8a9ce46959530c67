import Foundation
import FulfillmentLedger
import PlayStoreAdapter

/// Pub/Sub push bodies of real-time developer notifications, as Google publishes them.
extension PlayStoreSimulator {
    /// The Pub/Sub push body of a `oneTimeProductNotification` (`type` 1 purchased, 2 canceled)
    /// for a purchase in this store.
    public func rtdnBody(for token: String, type: Int, messageID: String? = nil) -> Data {
        let sku = storedPurchase(token)?.productId
        var notification = DeveloperNotification()
        notification.oneTimeProductNotification = DeveloperNotification.OneTimeProductNotification(
            notificationType: type, purchaseToken: token, sku: sku)
        return envelope(notification, messageID: messageID)
    }

    /// The Pub/Sub push body of a `voidedPurchaseNotification` for a one-time product
    /// (`refundType` 1 full, 2 quantity-based partial).
    public func voidedBody(for token: String, refundType: Int, messageID: String? = nil) -> Data {
        let orderID = storedPurchase(token)?.orderId
        var notification = DeveloperNotification()
        notification.voidedPurchaseNotification = DeveloperNotification.VoidedPurchaseNotification(
            purchaseToken: token, orderId: orderID,
            productType: DeveloperNotification.VoidedPurchaseNotification.oneTimeProductType, refundType: refundType)
        return envelope(notification, messageID: messageID)
    }

    /// The Pub/Sub push body of a Play Console test notification.
    public func testBody(messageID: String? = nil) -> Data {
        var notification = DeveloperNotification()
        notification.testNotification = DeveloperNotification.TestNotification()
        return envelope(notification, messageID: messageID)
    }

    /// Wraps a notification as Pub/Sub pushes it, with the simulator's package, the clock's
    /// event time and a fresh message ID unless one is given.
    public func envelope(_ notification: DeveloperNotification, messageID: String? = nil) -> Data {
        var notification = notification
        let now = clock.now()
        notification.version = notification.version ?? "1.0"
        notification.packageName = notification.packageName ?? packageName
        notification.eventTimeMillis = notification.eventTimeMillis ?? String(now.ledgerMilliseconds)
        let id = messageID ?? nextMessageID()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain optionals of strings and integers cannot fail.
        let data = (try? encoder.encode(notification)) ?? Data("{}".utf8)
        let push = PubSubPushEnvelope(
            message: PubSubPushEnvelope.Message(
                data: data.base64EncodedString(), messageId: id, publishTime: now.ledgerISO8601),
            subscription: "projects/simulator/subscriptions/play-rtdn")
        return (try? encoder.encode(push)) ?? Data("{}".utf8)
    }
}
