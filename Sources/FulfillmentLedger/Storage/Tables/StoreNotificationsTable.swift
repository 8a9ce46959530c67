import Foundation

/// `store_notifications`: store server notifications already processed, so each is applied
/// once (App Store `notificationUUID`, a Play message ID).
enum StoreNotificationsTable {
    /// The table as it stands, for a new database (`LedgerSchemaDescription`).
    static let schema = SQLTable(
        "store_notifications",
        columns: [
            SQLColumn("notification_id", .key), SQLColumn("store", .key), SQLColumn("type", .text),
            SQLColumn("transaction_store", .key, isNullable: true), SQLColumn("transaction_id", .key, isNullable: true),
            SQLColumn("received_at_ms", .integer), SQLColumn("outcome", .text),
        ],
        primaryKey: ["notification_id"])

    static let columns = "notification_id, store, type, transaction_store, transaction_id, received_at_ms, outcome"
    static let selectOneSQL = "SELECT \(columns) FROM store_notifications WHERE notification_id = ?"
    static let insertSQL = "INSERT INTO store_notifications (\(columns)) VALUES (?, ?, ?, ?, ?, ?, ?)"
}

extension LedgerReader {
    /// A processed store notification, if its ID was seen.
    public func storeNotification(id: String) throws(LedgerError) -> StoreNotificationRecord? {
        try one(StoreNotificationsTable.selectOneSQL, [.text(id)]) { (row) throws(LedgerError) in
            StoreNotificationRecord(
                notificationID: try row.text(0), store: PlatformStore(rawValue: try row.text(1)), type: try row.text(2),
                transaction: try row.optionalText(3).map { (store) throws(LedgerError) in
                    TransactionKey(store: PlatformStore(rawValue: store), transactionID: try row.text(4))
                },
                receivedAt: Date(ledgerMilliseconds: try row.int64(5)), outcome: try row.text(6))
        }
    }
}

extension LedgerWriter {
    /// Records a processed store notification; its ID must be new.
    public func insertStoreNotification(_ record: StoreNotificationRecord) throws(LedgerError) {
        try run(
            StoreNotificationsTable.insertSQL,
            [
                .text(record.notificationID), .text(record.store.rawValue), .text(record.type),
                .text(record.transaction?.store.rawValue), .text(record.transaction?.transactionID),
                .milliseconds(record.receivedAt), .text(record.outcome),
            ])
    }
}
