import Foundation

/// A store server notification the ledger has processed, kept so each is applied once
/// (App Store `notificationUUID`, Google Play Pub/Sub message ID).
public struct StoreNotificationRecord: Hashable, Sendable, Codable {
    /// The store's unique ID of the notification.
    public var notificationID: String
    /// The store that sent it.
    public var store: PlatformStore
    /// Its type, such as `REFUND` or `TEST`.
    public var type: String
    /// The transaction it concerns, if any.
    public var transaction: TransactionKey?
    /// When the ledger processed it.
    public var receivedAt: Date
    /// What processing it did, for the history.
    public var outcome: String

    /// Creates a record.
    public init(
        notificationID: String, store: PlatformStore, type: String, transaction: TransactionKey?, receivedAt: Date,
        outcome: String
    ) {
        self.notificationID = notificationID
        self.store = store
        self.type = type
        self.transaction = transaction
        self.receivedAt = receivedAt.truncatedToLedgerMilliseconds
        self.outcome = outcome
    }
}
