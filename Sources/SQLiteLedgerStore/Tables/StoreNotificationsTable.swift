import Foundation
import FulfillmentLedger

/// `store_notifications`: store server notifications already processed, so each is
/// applied once (App Store `notificationUUID`).
enum StoreNotificationsTable {
    static let createSQL = """
        CREATE TABLE store_notifications (
            notification_id TEXT PRIMARY KEY NOT NULL,
            store TEXT NOT NULL,
            type TEXT NOT NULL,
            transaction_store TEXT,
            transaction_id TEXT,
            received_at_ms INTEGER NOT NULL,
            outcome TEXT NOT NULL
        ) WITHOUT ROWID;
        """
}

extension SQLiteLedgerSession {
    func storeNotification(id: String) throws(LedgerError) -> StoreNotificationRecord? {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                SELECT notification_id, store, type, transaction_store, transaction_id, received_at_ms, outcome
                FROM store_notifications WHERE notification_id = ?
                """
            ).queryOne([.text(id)]) { row in
                StoreNotificationRecord(
                    notificationID: row.text(0), store: PlatformStore(rawValue: row.text(1)), type: row.text(2),
                    transaction: row.optionalText(3).map {
                        TransactionKey(store: PlatformStore(rawValue: $0), transactionID: row.text(4))
                    },
                    receivedAt: Date(ledgerMilliseconds: row.int64(5)), outcome: row.text(6))
            }
        }
    }

    func insertStoreNotification(_ record: StoreNotificationRecord) throws(LedgerError) {
        try sql { () throws(SQLiteError) in
            try connection.statement(
                """
                INSERT INTO store_notifications
                    (notification_id, store, type, transaction_store, transaction_id, received_at_ms, outcome)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """
            ).run([
                .text(record.notificationID), .text(record.store.rawValue), .text(record.type),
                .text(record.transaction?.store.rawValue), .text(record.transaction?.transactionID),
                .integer(record.receivedAt.ledgerMilliseconds), .text(record.outcome),
            ])
        }
    }
}
