import Foundation

/// A store's word that consent to use the app was withdrawn for one account (App Store
/// `RESCIND_CONSENT`: a parent or guardian withdrew consent for a minor's account, and the
/// App Store no longer lets the app open on it).
///
/// Kept for good, the first word per account: a later purchase that names the account is
/// refused `consentRescinded` and grants nothing, while everything granted before stays in the
/// ledger and its history.
public struct ConsentRescission: Hashable, Sendable, Codable {
    /// The store that withdrew the consent.
    public var store: PlatformStore
    /// The store's stable ID of the account's copy of the app (App Store `appTransactionId`,
    /// which survives redownloads and new devices).
    public var accountID: String
    /// When the store signed its word (the notification's `signedDate`).
    public var rescindedAt: Date
    /// The store notification that carried it (App Store `notificationUUID`).
    public var notificationID: String
    /// When the ledger recorded it.
    public var recordedAt: Date

    /// Creates a rescission.
    public init(store: PlatformStore, accountID: String, rescindedAt: Date, notificationID: String, recordedAt: Date) {
        self.store = store
        self.accountID = accountID
        self.rescindedAt = rescindedAt
        self.notificationID = notificationID
        self.recordedAt = recordedAt
    }
}
