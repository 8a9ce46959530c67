import Foundation

/// Notifications read from Get Notification History: one page, or several read in a row.
public struct AppStoreNotificationHistoryPage: Sendable {
    /// One notification Apple tried to send, its `signedPayload` verified.
    public struct Item: Sendable {
        /// The notification's compact JWS, as Apple signed it.
        public let signedPayload: String
        /// The verified notification (nested transaction and renewal info verified too).
        public let notification: ResponseBodyV2DecodedPayload
        /// Apple's attempts to deliver it, oldest first.
        public let sendAttempts: [SendAttempt]
    }

    /// One delivery attempt (`sendAttempts` item).
    public struct SendAttempt: Sendable, Hashable {
        /// When Apple tried.
        public let attemptDate: Date?
        /// Apple's result, such as `SUCCESS` or `TIMED_OUT` (`sendAttemptResult`).
        public let sendAttemptResult: String?
    }

    /// The verified notifications, in Apple's order.
    public var notifications: [Item]
    /// Apple's `paginationToken` for the next page; nil on the last.
    public var paginationToken: String?
    /// Whether Apple has more (a read that stopped at its page limit says so).
    public var hasMore: Bool
}

extension AppStoreNotificationHistoryPage {
    /// One page as Apple sent it, each `signedPayload` not yet verified
    /// (`AppStoreServerAPIClient.notificationHistoryEntries`).
    package struct Unverified: Sendable {
        /// One entry: the notification's compact JWS and Apple's delivery attempts.
        package struct Entry: Sendable {
            /// The notification's compact JWS, unverified.
            package var signedPayload: String
            /// Apple's attempts to deliver it, oldest first.
            package var sendAttempts: [SendAttempt]
        }

        /// The entries, in Apple's order.
        package var entries: [Entry]
        /// Apple's `paginationToken` for the next page; nil on the last.
        package var paginationToken: String?
        /// Whether Apple has more.
        package var hasMore: Bool
    }
}
