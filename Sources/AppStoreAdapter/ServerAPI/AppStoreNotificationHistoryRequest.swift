import Foundation
import FulfillmentLedger

/// The body of Get Notification History (`NotificationHistoryRequest`): a date range and at most
/// one of `notificationType` or `transactionID`.
public struct AppStoreNotificationHistoryRequest: Sendable, Hashable, Encodable {
    /// How far back Apple keeps notification history: `startDate` must be within this many days.
    public static let retentionDays = 180

    /// The range's start (`startDate`, milliseconds); must precede `endDate`.
    public var startDate: Date
    /// The range's end (`endDate`, milliseconds); Apple reads a future end as now.
    public var endDate: Date
    /// Only this type (`notificationType`).
    public var notificationType: NotificationTypeV2?
    /// Only this subtype (`notificationSubtype`); needs `notificationType`.
    public var notificationSubtype: NotificationSubtype?
    /// Only notifications about this transaction's customer (`transactionId`).
    public var transactionID: String?
    /// Only notifications that never reached the server (`onlyFailures`).
    public var onlyFailures: Bool?

    /// Creates a request.
    public init(
        startDate: Date, endDate: Date, notificationType: NotificationTypeV2? = nil,
        notificationSubtype: NotificationSubtype? = nil, transactionID: String? = nil, onlyFailures: Bool? = nil
    ) {
        self.startDate = startDate
        self.endDate = endDate
        self.notificationType = notificationType
        self.notificationSubtype = notificationSubtype
        self.transactionID = transactionID
        self.onlyFailures = onlyFailures
    }

    /// Apple's field names, dates as milliseconds.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(startDate.ledgerMilliseconds, forKey: .startDate)
        try container.encode(endDate.ledgerMilliseconds, forKey: .endDate)
        try container.encodeIfPresent(notificationType, forKey: .notificationType)
        try container.encodeIfPresent(notificationSubtype, forKey: .notificationSubtype)
        try container.encodeIfPresent(transactionID, forKey: .transactionID)
        try container.encodeIfPresent(onlyFailures, forKey: .onlyFailures)
    }

    private enum CodingKeys: String, CodingKey {
        case startDate, endDate, notificationType, notificationSubtype, onlyFailures
        case transactionID = "transactionId"
    }
}
