import Foundation

/// The body Cloud Pub/Sub POSTs to a push endpoint:
/// `{"message":{"data":"<base64>","messageId":"…","publishTime":"…"},"subscription":"…"}`.
public struct PubSubPushEnvelope: Hashable, Sendable, Codable {
    /// One Pub/Sub message.
    public struct Message: Hashable, Sendable, Codable {
        /// The payload, standard base64.
        public var data: String?
        /// Pub/Sub's unique ID of the message: the idempotency key of a notification.
        public var messageId: String?
        /// When Pub/Sub published it (RFC 3339).
        public var publishTime: String?
        /// Optional attributes.
        public var attributes: [String: String]?

        /// Creates a message.
        public init(data: String?, messageId: String?, publishTime: String?, attributes: [String: String]? = nil) {
            self.data = data
            self.messageId = messageId
            self.publishTime = publishTime
            self.attributes = attributes
        }

        /// The decoded `data`, when it is present and valid base64 (URL-safe accepted too).
        public var decodedData: Data? {
            guard let data else { return nil }
            var base64 = data.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
            while base64.count % 4 != 0 { base64 += "=" }
            return Data(base64Encoded: base64)
        }
    }

    /// The message.
    public var message: Message?
    /// The subscription it was delivered for.
    public var subscription: String?

    /// Creates an envelope.
    public init(message: Message?, subscription: String?) {
        self.message = message
        self.subscription = subscription
    }
}
