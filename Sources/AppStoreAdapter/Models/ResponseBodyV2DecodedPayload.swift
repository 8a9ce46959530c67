/// The decoded payload of an App Store Server Notification V2 (`signedPayload`), as Apple
/// documents `ResponseBodyV2DecodedPayload`.
///
/// After `SignedDataVerifier.verifyNotification`, `transaction`, `renewalInfo` and
/// `appTransaction` hold the verified contents of the nested `data.signedTransactionInfo`,
/// `data.signedRenewalInfo` and `appData.signedAppTransactionInfo`; the raw strings stay.
public struct ResponseBodyV2DecodedPayload: Hashable, Sendable, Codable {
    /// The notification's type.
    public var notificationType: NotificationTypeV2?
    /// The type's detail.
    public var subtype: NotificationSubtype?
    /// The notification's unique ID; a retried notification keeps it.
    public var notificationUUID: String?
    /// The app and transaction data (absent for summary and external-token notifications).
    public var data: NotificationData?
    /// The summary of a mass renewal-date extension.
    public var summary: NotificationSummary?
    /// The external purchase token.
    public var externalPurchaseToken: ExternalPurchaseToken?
    /// The app and its signed app transaction (a `RESCIND_CONSENT`).
    public var appData: NotificationAppData?
    /// The notification format version, such as `2.0`.
    public var version: String?
    /// When the App Store signed the notification.
    public var signedDate: AppStoreTimestamp?
    /// The verified nested transaction; set by verification, never decoded from JSON.
    public var transaction: JWSTransactionDecodedPayload?
    /// The verified nested renewal information; set by verification, never decoded from JSON.
    public var renewalInfo: JWSRenewalInfoDecodedPayload?
    /// The verified app transaction of `appData`; set by verification, never decoded from JSON.
    public var appTransaction: AppTransaction?

    /// An empty payload, for building one field by field.
    public init() {}

    /// The JSON fields; the verified nested payloads are left out so they can only come from
    /// verification.
    private enum CodingKeys: String, CodingKey {
        case notificationType, subtype, notificationUUID, data, summary, externalPurchaseToken, appData, version, signedDate
    }
}

extension ResponseBodyV2DecodedPayload: SignedPayload {
    /// Apple signs notifications with a signedDate.
    var effectiveSigningDate: AppStoreTimestamp? { signedDate }
}
