import AppStoreAdapter
import Foundation

/// The payload of a simulated App Store Server Notification V2 (Apple's
/// `ResponseBodyV2DecodedPayload`), with Apple's field names and millisecond dates.
///
/// Every field is a `var`, so a test can alter a notification and have the simulator sign it.
public struct AppStoreSimulatedNotification: Sendable, Hashable, Encodable {
    /// `notificationType`, such as `ONE_TIME_CHARGE`, `REFUND` or `DID_RENEW`.
    public var notificationType: NotificationTypeV2
    /// `subtype`, such as `INITIAL_BUY`; absent for most types.
    public var subtype: NotificationSubtype?
    /// `notificationUUID`: a fresh UUID per notification, lowercase.
    public var notificationUUID: String
    /// `data`: the app and the signed transaction the notification is about.
    public var data: Body
    /// `version`: `2.0`.
    public var version: String
    /// `signedDate`: when the notification was signed.
    public var signedDate: Date

    /// A notification about one signed transaction.
    public init(
        notificationType: NotificationTypeV2, subtype: NotificationSubtype? = nil,
        notificationUUID: String = UUID().uuidString.lowercased(), data: Body, signedDate: Date
    ) {
        self.notificationType = notificationType
        self.subtype = subtype
        self.notificationUUID = notificationUUID
        self.data = data
        self.version = "2.0"
        self.signedDate = signedDate
    }

    /// Apple's field names.
    private enum CodingKeys: String, CodingKey {
        case notificationType, subtype, notificationUUID, data, version, signedDate
    }

    /// Encodes Apple's JSON, leaving absent fields out.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(notificationType, forKey: .notificationType)
        try container.encodeIfPresent(subtype, forKey: .subtype)
        try container.encode(notificationUUID, forKey: .notificationUUID)
        try container.encode(data, forKey: .data)
        try container.encode(version, forKey: .version)
        try container.encode(AppStoreSimulatedTransaction.milliseconds(signedDate), forKey: .signedDate)
    }
}

extension AppStoreSimulatedNotification {
    /// The notification's `data` member.
    public struct Body: Sendable, Hashable, Encodable {
        /// `environment`.
        public var environment: AppStoreEnvironment
        /// `appAppleId`: absent in the sandbox, as Apple sends it.
        public var appAppleID: Int64?
        /// `bundleId`.
        public var bundleID: String
        /// `bundleVersion`: the app's build version.
        public var bundleVersion: String
        /// `signedTransactionInfo`: the transaction as a JWS of its own.
        public var signedTransactionInfo: String?
        /// `signedRenewalInfo`: the subscription's renewal information as a JWS of its own;
        /// only for auto-renewable subscriptions.
        public var signedRenewalInfo: String?
        /// `status`: the subscription's status; only for auto-renewable subscriptions.
        public var status: SubscriptionStatus?

        /// A body.
        public init(
            environment: AppStoreEnvironment, appAppleID: Int64?, bundleID: String, bundleVersion: String,
            signedTransactionInfo: String?, signedRenewalInfo: String? = nil, status: SubscriptionStatus? = nil
        ) {
            self.environment = environment
            self.appAppleID = appAppleID
            self.bundleID = bundleID
            self.bundleVersion = bundleVersion
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
            self.status = status
        }

        /// Apple's field names.
        private enum CodingKeys: String, CodingKey {
            case environment
            case appAppleID = "appAppleId"
            case bundleID = "bundleId"
            case bundleVersion, signedTransactionInfo, signedRenewalInfo, status
        }
    }
}
