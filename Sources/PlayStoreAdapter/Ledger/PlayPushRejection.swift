import Foundation

/// Why an authenticated Pub/Sub push body was refused: it cannot be a notification for this
/// app, or it carries a value out of range. Nothing changed and the push was not recorded;
/// sending it again gives the same answer, so acknowledge it (2xx) and log it.
public struct PlayPushRejection: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong with the body.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// The body is larger than `PlayNotificationProcessor.bodyByteCountMax`.
        case bodyTooLarge
        /// The body is not a Pub/Sub push envelope with a message.
        case notAnEnvelope
        /// The message has no `messageId`, or one longer than `PlayPayloadLimits.messageIDByteCountMax`.
        case invalidMessageID
        /// The message `data` is not base64 of a developer notification.
        case notANotification
        /// The notification is for another package.
        case wrongPackage
        /// A time, quantity or identifier in the notification is out of range (`payloadError`).
        case invalidPayload

        /// The stable numeric code (Docs/ErrorCodes.md).
        public var code: Int {
            switch self {
            case .bodyTooLarge: 8101
            case .notAnEnvelope: 8102
            case .invalidMessageID: 8103
            case .notANotification: 8104
            case .wrongPackage: 8105
            case .invalidPayload: 8106
            }
        }
    }

    /// What was wrong.
    public var reason: Reason
    /// The details.
    public var detail: String
    /// The refused value, for `invalidPayload`.
    public var payloadError: PlayPayloadError?

    /// Creates a rejection.
    public init(_ reason: Reason, _ detail: String, payloadError: PlayPayloadError? = nil) {
        self.reason = reason
        self.detail = detail
        self.payloadError = payloadError
    }

    /// A rejection for a refused payload value.
    public init(_ payloadError: PlayPayloadError) {
        self.init(.invalidPayload, "\(payloadError) (\(payloadError.code))", payloadError: payloadError)
    }

    /// `reason (code): detail`.
    public var description: String { "\(reason.rawValue) (\(reason.code)): \(detail)" }
}
