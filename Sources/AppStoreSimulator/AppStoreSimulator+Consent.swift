import AppStoreAdapter
import Foundation

extension AppStoreSimulator {
    /// A signed `RESCIND_CONSENT`, as Apple sends it when a parent or guardian withdraws consent
    /// for a minor's account: no `data`, but `appData` with the app's identifiers and the
    /// account's app transaction (`appTransactionId`), signed by this store, at `date` (default:
    /// the clock's now).
    public func rescindConsentNotification(
        appTransactionID: String, notificationUUID: String = UUID().uuidString.lowercased(), at date: Date? = nil
    ) throws -> String {
        let appTransaction = appTransaction(id: appTransactionID, at: date)
        var notification = ResponseBodyV2DecodedPayload()
        notification.notificationType = .rescindConsent
        notification.notificationUUID = notificationUUID
        notification.version = "2.0"
        notification.signedDate = appTransaction.receiptCreationDate
        var appData = NotificationAppData()
        appData.environment = environment
        appData.appAppleId = appAppleID
        appData.bundleId = bundleID
        appData.signedAppTransactionInfo = try signer.sign(appTransaction)
        notification.appData = appData
        return try signer.sign(notification)
    }
}
